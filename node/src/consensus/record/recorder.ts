/**
 * Recording a node's consensus core (format.ts): each height's core is made through
 * recordingCore, which writes the height's context, wraps the core's edges (the signer, the
 * validity of blocks, the block built) to write each answer as it is given, and writes each input
 * and the actions the core answered with. The core itself is the node's own; nothing it decides
 * depends on whether it is recorded.
 */
import { blockHash, blockToJson } from '../../chain/index.js';
import { HeightConsensus } from '../heightConsensus.js';
import type { HeightContext } from '../heightContext.js';
import type { ConsensusSigner } from '../signer.js';
import type { ConsensusAction, Step } from '../types.js';
import {
  proposalJson,
  RECORD_FORMAT,
  type RecordEntry,
  type RecordInput,
  recordedActions,
  resumeJson,
  timeoutsJson,
  voteJson,
} from './format.js';

/** Where a record's lines go (the node's bounded file: home/consensusRecord.ts). */
export interface RecordSink {
  write(entry: RecordEntry): void;
}

class RecordingConsensus extends HeightConsensus {
  constructor(
    ctx: HeightContext,
    private readonly sink: RecordSink,
    private readonly now: () => number,
  ) {
    super(ctx);
  }

  private recorded(input: RecordInput, run: () => ConsensusAction[]): ConsensusAction[] {
    this.sink.write(input);
    const actions = run();
    this.sink.write({ k: 'out', actions: recordedActions(actions) });
    return actions;
  }

  override start(): ConsensusAction[] {
    return this.recorded({ k: 'start', t: this.now() }, () => super.start());
  }

  override onProposal(p: Parameters<HeightConsensus['onProposal']>[0]): ConsensusAction[] {
    return this.recorded({ k: 'proposal', t: this.now(), proposal: proposalJson(p) }, () =>
      super.onProposal(p),
    );
  }

  override onVote(v: Parameters<HeightConsensus['onVote']>[0]): ConsensusAction[] {
    return this.recorded({ k: 'vote', t: this.now(), vote: voteJson(v) }, () => super.onVote(v));
  }

  override onTimeout(step: Step, round: number): ConsensusAction[] {
    return this.recorded({ k: 'timeout', t: this.now(), step, round }, () => super.onTimeout(step, round));
  }

  override rebroadcast(): ConsensusAction[] {
    return this.recorded({ k: 'rebroadcast', t: this.now() }, () => super.rebroadcast());
  }
}

function recordedSigner(signer: ConsensusSigner, sink: RecordSink): ConsensusSigner {
  return {
    address: signer.address,
    sign(request) {
      const signature = signer.sign(request);
      sink.write({
        k: 'signed',
        round: request.round,
        step: request.step,
        block_hash: request.blockHash,
        signature,
      });
      return signature;
    },
    resume(height) {
      const resume = signer.resume(height);
      sink.write({ k: 'resume', resume: resumeJson(resume) });
      return resume;
    },
  };
}

/** The height's core, recorded into `sink` (its context first). */
export function recordingCore(ctx: HeightContext, sink: RecordSink, now: () => number): HeightConsensus {
  sink.write({
    k: 'height',
    format: RECORD_FORMAT,
    t: now(),
    height: ctx.height,
    chain_id: ctx.chainId,
    validators: ctx.validators.map((v) => v.address),
    signer: ctx.signer?.address ?? null,
    timeouts: timeoutsJson(ctx.timeouts),
  });
  return new RecordingConsensus(
    {
      ...ctx,
      signer: ctx.signer === null ? null : recordedSigner(ctx.signer, sink),
      isValid(block) {
        const ok = ctx.isValid(block);
        sink.write({ k: 'valid', block_hash: blockHash(block.header), ok });
        return ok;
      },
      build(round) {
        const block = ctx.build(round);
        sink.write({ k: 'built', round, block: blockToJson(block) });
        return block;
      },
    },
    sink,
    now,
  );
}

/**
 * Replaying a consensus record (format.ts) into this build's core, offline: each height's core is
 * made from the recorded context, its edges answer from the record (the signer gives the recorded
 * signatures, a block's validity and the block built are the recorded ones), its inputs are the
 * recorded ones in their order, and after each the actions it answers with must be the recorded
 * ones. The first difference is where this build decides otherwise than the one that recorded:
 * at which height, after which input, what was recorded and what this build did. A record cut off
 * (a node killed mid-height, the oldest heights rotated out) is replayed up to where it ends.
 */
import { blockHash, type Validator } from '../../chain/index.js';
import { HeightConsensus } from '../heightConsensus.js';
import type { ConsensusSigner } from '../signer.js';
import type { ConsensusAction } from '../types.js';
import {
  blockOf,
  proposalOf,
  type RecordEntry,
  RecordError,
  type RecordedAction,
  recordedActions,
  resumeOf,
  timeoutsOf,
  voteOf,
} from './format.js';

export interface Divergence {
  readonly height: number;
  /** The record's line (1-based) where this build did otherwise. */
  readonly line: number;
  /** The input (or edge) being replayed there. */
  readonly at: string;
  readonly recorded: string;
  readonly replayed: string;
}

export interface ReplayResult {
  /** Heights replayed whole or in part (from the first height entry). */
  readonly heights: number;
  readonly inputs: number;
  /** Decisions made, as recorded. */
  readonly decisions: number;
  /** The first height and the last that were replayed. */
  readonly from: number | null;
  readonly to: number | null;
  readonly divergence: Divergence | null;
}

class Diverged extends Error {
  constructor(readonly d: Divergence) {
    super(`height ${d.height}, line ${d.line} (${d.at}): recorded ${d.recorded}; this build: ${d.replayed}`);
  }
}

const show = (x: unknown) => JSON.stringify(x);

export function replayRecord(entries: readonly RecordEntry[]): ReplayResult {
  let at = entries.findIndex((e) => e.k === 'height');
  let heights = 0;
  let inputs = 0;
  let decisions = 0;
  let from: number | null = null;
  let to: number | null = null;
  try {
    while (at >= 0 && at < entries.length) {
      const head = entries[at]!;
      if (head.k !== 'height')
        throw new RecordError(`line ${at + 1}: a height entry expected, found ${head.k}`);
      let end = entries.findIndex((e, i) => i > at && e.k === 'height');
      if (end < 0) end = entries.length;
      const r = replayHeight(entries, at, end);
      heights++;
      inputs += r.inputs;
      decisions += r.decisions;
      from ??= head.height;
      to = head.height;
      at = end;
    }
  } catch (e) {
    if (!(e instanceof Diverged)) throw e;
    return { heights, inputs, decisions, from, to, divergence: e.d };
  }
  return { heights, inputs, decisions, from, to, divergence: null };
}

function replayHeight(entries: readonly RecordEntry[], start: number, end: number) {
  const head = entries[start] as Extract<RecordEntry, { k: 'height' }>;
  let cursor = start + 1;
  let current = 'the core made';
  const diverged = (recorded: string, replayed: string): never => {
    throw new Diverged({ height: head.height, line: cursor + 1, at: current, recorded, replayed });
  };
  /** The next entry, which must be an edge's answer of kind `k`; the edge asked is `asked`. */
  const answer = <K extends RecordEntry['k']>(k: K, asked: string): Extract<RecordEntry, { k: K }> => {
    const e = entries[cursor];
    if (cursor >= end || e === undefined) return diverged('nothing more at this height', asked);
    if (e.k !== k) return diverged(e.k === 'out' ? `the actions ${show(e.actions)}` : `${e.k}`, asked);
    cursor++;
    return e as Extract<RecordEntry, { k: K }>;
  };
  const signer: ConsensusSigner | null =
    head.signer === null
      ? null
      : {
          address: head.signer,
          sign(request) {
            const asked = `a signature of the ${request.step} of round ${request.round} for ${request.blockHash}`;
            const e = answer('signed', asked);
            if (e.round !== request.round || e.step !== request.step || e.block_hash !== request.blockHash)
              diverged(`a signature of the ${e.step} of round ${e.round} for ${e.block_hash}`, asked);
            return e.signature;
          },
          resume: () => resumeOf(answer('resume', "the signer's resume").resume),
        };
  const core = new HeightConsensus({
    chainId: head.chain_id,
    height: head.height,
    validators: head.validators.map((address) => ({ address }) as Validator),
    signer,
    isValid(block) {
      const hash = blockHash(block.header);
      const e = answer('valid', `the validity of block ${hash}`);
      if (e.block_hash !== hash) diverged(`the validity of block ${e.block_hash}`, `that of ${hash}`);
      return e.ok;
    },
    build(round) {
      const e = answer('built', `a block built for round ${round}`);
      if (e.round !== round) diverged(`a block built for round ${e.round}`, `one for round ${round}`);
      return blockOf(e.block);
    },
    timeouts: timeoutsOf(head.timeouts),
  });
  let inputs = 0;
  let decisions = 0;
  while (cursor < end) {
    const input = entries[cursor]!;
    const line = cursor;
    current = `${input.k} (line ${line + 1})`;
    cursor++;
    let actions: ConsensusAction[];
    if (input.k === 'start') actions = core.start();
    else if (input.k === 'proposal') actions = core.onProposal(proposalOf(input.proposal));
    else if (input.k === 'vote') actions = core.onVote(voteOf(input.vote));
    else if (input.k === 'timeout') actions = core.onTimeout(input.step, input.round);
    else if (input.k === 'rebroadcast') actions = core.rebroadcast();
    else {
      cursor--;
      return diverged(`the core asked for ${input.k} here`, 'nothing asked');
    }
    inputs++;
    const replayed = recordedActions(actions);
    const out = entries[cursor];
    // A record cut off after an input: nothing to compare its actions with.
    if (cursor >= end || out === undefined) break;
    if (out.k !== 'out') diverged(`the core asked for ${out.k}`, `the actions ${show(replayed)}`);
    const recorded = (out as Extract<RecordEntry, { k: 'out' }>).actions;
    if (!sameActions(recorded, replayed))
      diverged(`the actions ${show(recorded)}`, `the actions ${show(replayed)}`);
    cursor++;
    decisions += replayed.filter((a) => a.kind === 'decide').length;
  }
  return { inputs, decisions };
}

function sameActions(a: readonly RecordedAction[], b: readonly RecordedAction[]): boolean {
  return a.length === b.length && a.every((x, i) => show(x) === show(b[i]));
}

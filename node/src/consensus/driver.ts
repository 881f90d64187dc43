/**
 * Runs consensus for the node: one HeightConsensus per height, fed by gossip (proposals on
 * /chain/blocks/1.0.0, votes on /chain/votes/1.0.0) and by the ticker; its actions go out as
 * gossip (outbox.ts), timers and commits. Every message gets its gossip verdict from the checks
 * in verdicts/ (why a message was refused is there), turned into the p2p layer's in one place
 * (`count`). A message for the next height gets its verdict when the node enters that height
 * (nextHeightBuffer.ts). When to fetch blocks by block sync instead is catchUpPolicy.ts.
 */
import { activeValidators, type Block, type Commit, type Validator } from '../chain/index.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { ChainService } from '../node/chainService.js';
import type { P2PNetwork, Verdict } from '../p2p/network.js';
import { TOPIC_BLOCKS, TOPIC_VOTES } from '../p2p/protocol.js';
import type { Logger } from '../util/logger.js';
import { Authenticity } from './authenticity.js';
import { BlockValidity } from './blockValidity.js';
import { behindGraceMs, onTick, STALL_CHECK_MS } from './catchUpPolicy.js';
import type { Equivocator } from './equivocator.js';
import { HeightConsensus } from './heightConsensus.js';
import { heightOf, type Message } from './message.js';
import { NextHeightBuffer } from './nextHeightBuffer.js';
import { Outbox } from './outbox.js';
import { ResendSchedule } from './resend.js';
import type { ConsensusSigner } from './signer.js';
import { SlotLog } from './slotLog.js';
import type { BlockSync } from './sync.js';
import type { Cancel, Ticker } from './ticker.js';
import type { ConsensusAction, Timeouts } from './types.js';
import { placeHeight } from './verdicts/height.js';
import { readProposal } from './verdicts/proposal.js';
import { ACCEPT, type GossipVerdict, ignore, toGossip } from './verdicts/verdict.js';
import { readVote } from './verdicts/vote.js';

export interface DriverOptions {
  /** The validator key, for the header signature of the blocks it builds; null for an observer. */
  readonly privateKey: Uint8Array | null;
  /** Signs this validator's proposals and votes (with double-sign protection); null for an observer. */
  readonly signer: ConsensusSigner | null;
  /** TEST ONLY (--byzantine equivocate): sends two versions of each of its messages; else null. */
  readonly equivocator?: Equivocator | null;
  readonly blockTimeMs: number;
  readonly timeouts: Timeouts;
  /** A node that has waited this long without a step of its own re-sends its messages of the height (ResendSchedule). */
  readonly rebroadcastMs: number;
  /** A block whose timestamp is further ahead of this node's clock is refused. */
  readonly maxClockDriftSec: number;
}

/** What the driver runs on, built by the composition root (node/node.ts). */
export interface DriverDeps {
  readonly service: ChainService;
  /** null for a node without p2p. */
  readonly network: P2PNetwork | null;
  readonly sync: Pick<BlockSync, 'active' | 'catchUp'> | null;
  readonly metrics: NodeMetrics;
  readonly logger: Logger;
  /** Every timer and the clock (realTicker in the node, ManualTicker in tests). */
  readonly ticker: Ticker;
}

type Pending = GossipVerdict | Promise<GossipVerdict>;

export class ConsensusDriver {
  private core: HeightConsensus | null = null;
  private height = 0;
  private validators: Validator[] = [];
  private heightStartedAt = 0;
  private lastProgressAt = 0;
  /** Whether a proposal or vote of the current height has come from a peer. */
  private heardThisHeight = false;
  /** When this node last asked a few peers whether they had moved past a silent height. */
  private askedAt = 0;
  private committing = false;
  private stopped = false;
  /** The active set of the next height, computed once the current height is committed. */
  private nextValidators: { height: number; validators: Validator[] } | null = null;
  private stopRebroadcast: Cancel = () => undefined;
  private stopStallCheck: Cancel = () => undefined;
  private readonly next = new NextHeightBuffer();
  private readonly blocks: BlockValidity;
  private readonly auth: Authenticity;
  private readonly outbox: Outbox;
  private readonly slots: SlotLog;

  constructor(
    private readonly opts: DriverOptions,
    private readonly deps: DriverDeps,
  ) {
    const { service, logger } = deps;
    const now = () => this.now();
    this.blocks = new BlockValidity(service, logger, opts.maxClockDriftSec, now);
    this.auth = new Authenticity(service, logger, now);
    const chainId = () => service.state.params.chainId;
    this.outbox = new Outbox(
      deps.network,
      opts.equivocator ?? null,
      opts.signer?.address ?? null,
      chainId,
      now,
    );
    this.slots = new SlotLog(logger);
  }

  async start(): Promise<void> {
    const { network, ticker } = this.deps;
    network?.subscribe(TOPIC_BLOCKS, (data) => this.count(TOPIC_BLOCKS, this.onBytes(readProposal(data))));
    network?.subscribe(TOPIC_VOTES, (data) => this.count(TOPIC_VOTES, this.onBytes(readVote(data))));
    // A peer that just joined missed what we sent before: send our current messages now (once
    // per burst of joins), so a network starting together decides its first block without
    // waiting for the periodic rebroadcast.
    network?.onTopicPeerJoined(TOPIC_VOTES, () => {
      if (ticker.pending('join')) return;
      ticker.schedule('join', 20, () => {
        if (this.core && this.deciding && !this.stopped) this.apply(this.core.rebroadcast());
      });
    });
    const catchUpStarted = this.now();
    await this.catchUp();
    this.deps.logger.info('consensus started', {
      height: this.deps.service.state.height + 1,
      catch_up_ms: this.now() - catchUpStarted,
    });
    this.enterHeight();
    this.stopStallCheck = ticker.every(STALL_CHECK_MS, () => this.checkStall());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const key of ['height', 'join', 'behind']) this.deps.ticker.cancel(key);
    this.stopRebroadcast();
    this.stopStallCheck();
    this.next.drop();
  }

  private now(): number {
    return this.deps.ticker.now();
  }

  /** The one place a verdict becomes the p2p layer's, counted by topic. */
  private count(topic: string, verdict: Pending): Verdict | Promise<Verdict> {
    if (verdict instanceof Promise) return verdict.then((v) => this.count(topic, v));
    this.deps.metrics.gossipMessages.inc({ topic, verdict: toGossip(verdict) });
    return toGossip(verdict);
  }

  private onBytes(read: Message | Extract<GossipVerdict, { kind: 'reject' }>): Pending {
    return read.kind === 'reject' ? read : this.onMessage(read);
  }

  private async catchUp(askPeers?: number): Promise<void> {
    const sync = this.deps.sync;
    if (sync === null || sync.active) return;
    try {
      await sync.catchUp(askPeers);
    } catch (e) {
      this.deps.logger.warn('sync failed', { error: (e as Error).message });
    }
    // A height committed meanwhile (by this run, even one that failed midway, or by another) is
    // left for the next one: waiting for a run that applies blocks could wait forever once the
    // peers stop being ahead. Before consensus starts (core null), start() enters.
    if (
      !this.stopped &&
      this.core !== null &&
      !this.committing &&
      this.deps.service.state.height >= this.height
    )
      this.enterHeight();
  }

  private checkStall(): void {
    if (this.committing) return; // a commit in progress is progress
    const now = this.now();
    const { lastProgressAt, askedAt, deciding } = this;
    const due = onTick({ now, blockTimeMs: this.opts.blockTimeMs, lastProgressAt, askedAt, deciding });
    if (due.kind === 'stalled') {
      this.lastProgressAt = now;
      void this.catchUp();
    } else if (due.kind === 'silent') {
      this.deps.logger.debug('nothing of this height for a while: asking peers', {
        height: this.height,
        quietMs: due.quietMs,
      });
      this.askedAt = now;
      void this.catchUp(due.askPeers);
    }
    this.deps.metrics.peers.set(this.deps.network?.connectedPeers().length ?? 0);
  }

  /** Starts consensus for the height after the last committed block. */
  private enterHeight(): void {
    if (this.stopped) return;
    const { service, ticker, metrics } = this.deps;
    ticker.cancel('height');
    const state = service.state;
    const previous = { height: this.height, startedAt: this.heightStartedAt };
    this.height = state.height + 1;
    this.validators = activeValidators(state);
    this.blocks.clear();
    this.auth.forgetBelow(this.height);
    const paced = previous.height > 0 && previous.height === this.height - 1;
    this.slots.entered(this.height, paced ? this.now() - (previous.startedAt + this.opts.blockTimeMs) : null);
    this.heightStartedAt = this.now();
    this.lastProgressAt = this.now();
    this.heardThisHeight = false;
    const mine = this.validators.some((v) => v.address === this.opts.signer?.address);
    const core = new HeightConsensus({
      chainId: state.params.chainId,
      height: this.height,
      validators: this.validators,
      signer: mine ? this.opts.signer : null,
      isValid: (block) => this.blocks.isValid(block),
      build: (round) => this.blocks.build(this.opts.privateKey!, round),
      timeouts: this.opts.timeouts,
    });
    this.core = core;
    metrics.consensusRound.set(0);
    this.apply(core.start());
    this.next.release(this.height, (m) => this.onMessage(m));
    this.stopRebroadcast();
    const resend = new ResendSchedule(this.opts.rebroadcastMs, core.progress, this.now());
    this.stopRebroadcast = ticker.every(Math.max(10, Math.floor(this.opts.rebroadcastMs / 4)), () => {
      if (this.core === core && this.deciding && resend.due(core.progress, this.now()))
        this.apply(core.rebroadcast());
    });
  }

  private apply(actions: ConsensusAction[]): void {
    for (const a of actions) {
      if (a.kind === 'broadcast-proposal') this.outbox.proposal(a.proposal);
      else if (a.kind === 'broadcast-vote') this.outbox.vote(a.vote);
      else if (a.kind === 'decide') void this.commit(a.block, a.commit, a.blockHash);
      else {
        const due = this.now() + a.ms;
        // Under 'height/': every timer of a height is cancelled when the next one starts.
        this.deps.ticker.schedule(`height/${a.step}/${a.round}`, a.ms, () => {
          if (!this.core || this.height !== a.height || !this.deciding) return;
          if (a.step === 'propose' && this.core.round === a.round && this.core.step === 'propose')
            this.slots.noProposal({
              height: this.height,
              round: a.round,
              proposer: this.core.proposerOf(a.round).address,
              sinceHeightMs: this.now() - this.heightStartedAt,
              timerLateMs: this.now() - due,
            });
          this.apply(this.core.onTimeout(a.step, a.round));
          this.deps.metrics.consensusRound.set(this.core.round);
        });
      }
    }
  }

  private async commit(block: Block, commit: Commit, hash: string): Promise<void> {
    const { service, metrics, logger, ticker } = this.deps;
    this.committing = true;
    try {
      const committed = await service.commitDecided(block, commit, this.blocks.resultOf(hash));
      if (committed) metrics.consensusRounds.observe(commit.round + 1);
    } catch (e) {
      logger.error('commit of a decided block failed', {
        height: block.header.height,
        error: (e as Error).message,
      });
    } finally {
      this.committing = false;
    }
    // Pace heights at the block time: the next one starts block_time after this one started.
    const wait = Math.max(0, this.heightStartedAt + this.opts.blockTimeMs - this.now());
    ticker.schedule('height/enter', wait, () => {
      if (service.state.height >= this.height) this.enterHeight();
    });
  }

  /**
   * Whether the current height is still to be decided here: not being committed, and not
   * committed meanwhile by block sync (which applies blocks while this height's consensus
   * still runs; the node enters the next height when the sync ends). Its consensus must then
   * stop acting: as a proposer it would build its block on the state after the height.
   */
  private get deciding(): boolean {
    return this.core !== null && !this.committing && this.deps.service.state.height < this.height;
  }

  private onMessage(m: Message): Pending {
    const where = placeHeight(heightOf(m), { height: this.height, started: this.core !== null });
    if (where !== 'current' && where !== 'next') {
      if (where.reason === 'far-ahead') void this.catchUp();
      return where;
    }
    if (where === 'next' || this.core === null) return this.early(m);
    const verdict = this.auth.check(m, this.validators);
    if (verdict.kind !== 'accept') return verdict;
    if (m.kind === 'vote') this.deps.metrics.votes.inc({ kind: m.vote.kind });
    // Decided here, or committed by block sync: passed on all the same (peers may still need it).
    if (!this.deciding) return ACCEPT;
    this.lastProgressAt = this.now();
    this.heardThisHeight = true;
    if (m.kind === 'vote') {
      this.apply(this.core.onVote(m.vote));
      this.deps.metrics.consensusRound.set(this.core.round);
    } else {
      this.slots.proposal(m.proposal, this.now() - this.heightStartedAt);
      this.apply(this.core.onProposal(m.proposal));
    }
    return ACCEPT;
  }

  /**
   * A message for the height after the current one (or before consensus started). Once the
   * current height is committed, the next height's validators are known: the message is checked
   * now and, if authentic, passed on at once (a node waiting out the block time would otherwise
   * hold the next proposer's proposal back from the peers that reach it through this node), and
   * kept for the core. Before that its verdict waits until the node enters the height. And while
   * this node is still deciding the current height, a message of the next one shows that others
   * have decided it: if the decision does not come here soon, block sync fetches it.
   */
  private early(m: Message): Pending {
    const height = heightOf(m);
    const state = this.deps.service.state;
    if (height === state.height + 1 && height === this.height + 1 && this.core !== null) {
      if (this.next.full) return ignore('next-height-full');
      if (this.nextValidators?.height !== height)
        this.nextValidators = { height, validators: activeValidators(state) };
      const verdict = this.auth.check(m, this.nextValidators.validators);
      if (verdict.kind === 'accept') this.next.keep(m);
      return verdict;
    }
    if (height === this.height + 1 && this.deciding) this.syncIfStillDeciding();
    return this.next.defer(m);
  }

  private syncIfStillDeciding(): void {
    const { ticker, logger } = this.deps;
    if (ticker.pending('behind')) return;
    const height = this.height;
    ticker.schedule('behind', behindGraceMs(this.heardThisHeight, this.heightStartedAt, this.now()), () => {
      if (this.height === height && this.deciding && !this.stopped) {
        logger.info('peers are past this height: block sync', { height });
        void this.catchUp();
      }
    });
  }
}

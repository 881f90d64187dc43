/**
 * Runs consensus for the node: one HeightConsensus per height, fed by gossip (proposals on
 * /chain/blocks/1.0.0, votes on /chain/votes/1.0.0) and by the ticker; its actions go out as
 * gossip (outbox.ts), timers and commits. Every message gets its gossip verdict from the checks
 * in verdicts/ (why a message was refused is there), turned into the p2p layer's in one place
 * (`count`). A message for the next height gets its verdict when the node enters that height
 * (nextHeightBuffer.ts). When to fetch blocks by block sync instead is sync/block/catchUpPolicy.ts.
 */
import { activeValidators, type Block, type Commit, type Validator } from '../../chain/index.js';
import type { Verdict } from '../../p2p/network.js';
import { TOPIC_BLOCKS, TOPIC_VOTES } from '../../p2p/protocol.js';
import { BEHIND_TIMER, CatchUp, STALL_CHECK_MS } from '../../sync/index.js';
import type { Cancel } from '../../util/ticker.js';
import { HeightConsensus } from '../heightConsensus.js';
import type { HeightContext } from '../heightContext.js';
import { heightOf, type Message } from '../message.js';
import { FREE_PACE, type HeightPace } from '../pace.js';
import { recordingCore } from '../record/recorder.js';
import type { ConsensusAction } from '../types.js';
import { placeHeight } from '../verdicts/height.js';
import { readProposal } from '../verdicts/proposal.js';
import { ACCEPT, type GossipVerdict, toGossip } from '../verdicts/verdict.js';
import { readVote } from '../verdicts/vote.js';
import { Authenticity } from './authenticity.js';
import { BlockValidity } from './blockValidity.js';
import type { DriverDeps, DriverOptions } from './driverOptions.js';
import { NextHeightBuffer } from './nextHeightBuffer.js';
import { Outbox } from './outbox.js';
import { JOIN_TIMER, resendOnJoin, resendWhileQuiet } from './resend.js';
import { SlotLog } from './slotLog.js';

type Pending = GossipVerdict | Promise<GossipVerdict>;

/** How long after a failed commit of a decided block it is tried again (a disk full, then freed). */
export const COMMIT_RETRY_MS = 1000;

export class ConsensusDriver {
  private core: HeightConsensus | null = null;
  private height = 0;
  private validators: Validator[] = [];
  private heightStartedAt = 0;
  /** Until then (a start, or a hold's end, plus the start grace) no step of a round 0 times out. */
  private graceUntil = 0;
  private committing = false;
  /** Failed commits of the current height's decided block (the first is logged). */
  private commitFailures = 0;
  private stopped = false;
  /** Committed its height and waiting for the pace to let it enter the next (a held chain). */
  private held = false;
  /** Timeouts of the current height that fell due while its timeouts were held. */
  private heldTimeouts: Extract<ConsensusAction, { kind: 'schedule-timeout' }>[] = [];
  private readonly pace: HeightPace;
  private stopRebroadcast: Cancel = () => undefined;
  private stopStallCheck: Cancel = () => undefined;
  private readonly next = new NextHeightBuffer();
  private readonly blocks: BlockValidity;
  private readonly auth: Authenticity;
  private readonly outbox: Outbox;
  private readonly slots: SlotLog;
  private readonly catchUp: CatchUp;

  constructor(
    private readonly opts: DriverOptions,
    private readonly deps: DriverDeps,
  ) {
    const { service, logger } = deps;
    const now = () => this.now();
    this.pace = deps.pace ?? FREE_PACE;
    this.blocks = new BlockValidity(service, logger, opts.maxClockDriftSec, deps.chainClock ?? now);
    this.auth = new Authenticity(service, logger, now);
    this.outbox = new Outbox(deps.network, opts, () => service.state.params.chainId, now);
    this.slots = new SlotLog(logger);
    this.catchUp = new CatchUp(deps.sync, logger, deps.ticker, opts.blockTimeMs, {
      height: () => this.height,
      deciding: () => this.deciding,
      stopped: () => this.stopped,
      // Before consensus starts (core null), start() enters.
      synced: () => {
        if (this.core !== null && !this.committing && service.state.height >= this.height)
          this.enterNext(false);
      },
    });
  }

  async start(): Promise<void> {
    const { network, ticker } = this.deps;
    network?.subscribe(TOPIC_BLOCKS, (data) => this.count(TOPIC_BLOCKS, this.onBytes(readProposal(data))));
    network?.subscribe(TOPIC_VOTES, (data) => this.count(TOPIC_VOTES, this.onBytes(readVote(data))));
    const resend = () => {
      if (this.core && this.deciding && !this.stopped) this.apply(this.core.rebroadcast());
    };
    network?.onTopicPeerJoined(TOPIC_VOTES, resendOnJoin(ticker, resend));
    const catchUpStarted = this.now();
    await this.catchUp.run();
    this.deps.logger.info('consensus started', {
      height: this.deps.service.state.height + 1,
      catch_up_ms: this.now() - catchUpStarted,
    });
    this.graceFrom();
    this.pace.onChange(() => this.onPaceChange());
    if (this.pace.mayEnter(this.deps.service.state.height + 1)) this.enterHeight();
    else this.held = true;
    this.stopStallCheck = ticker.every(STALL_CHECK_MS, () => this.checkStall());
  }

  /** Whether the validator has committed its height and waits for the hold to end (the test-only chain control). */
  get isHeld(): boolean {
    return this.held;
  }

  /** No round 0 times out before the start grace from now has passed (a start, or the end of a hold). */
  private graceFrom(): void {
    this.graceUntil = this.now() + (this.opts.startGraceMs ?? 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const key of ['height', JOIN_TIMER, BEHIND_TIMER]) this.deps.ticker.cancel(key);
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

  private checkStall(): void {
    // A commit in progress is progress. A held node still checks: one started into a held chain
    // behind the others catches up by block sync (synced() then enters nothing while held).
    if (this.committing) return;
    this.catchUp.tick();
    this.deps.metrics.peers.set(this.deps.network?.connectedPeers().length ?? 0);
  }

  /** Starts consensus for the height after the last committed block. */
  private enterHeight(): void {
    if (this.stopped) return;
    const { service, ticker, metrics } = this.deps;
    ticker.cancel('height');
    const state = service.state;
    // Before anything is signed at the new height: a plan there this binary cannot apply halts it.
    if (this.deps.haltsBefore?.(state)) {
      this.core = null;
      void this.stop();
      return;
    }
    const previous = { height: this.height, startedAt: this.heightStartedAt };
    this.height = state.height + 1;
    this.validators = activeValidators(state);
    this.blocks.clear();
    this.heldTimeouts = [];
    this.commitFailures = 0;
    this.auth.forgetBelow(this.height);
    const paced = previous.height > 0 && previous.height === this.height - 1;
    this.slots.entered(this.height, paced ? this.now() - (previous.startedAt + this.opts.blockTimeMs) : null);
    this.heightStartedAt = this.now();
    this.catchUp.entered();
    const mine = this.validators.some((v) => v.address === this.opts.signer?.address);
    const ctx: HeightContext = {
      chainId: state.params.chainId,
      height: this.height,
      validators: this.validators,
      signer: mine ? this.opts.signer : null,
      isValid: (block) => this.blocks.isValid(block),
      build: (round) => this.blocks.build(this.opts.privateKey!, round),
      timeouts: this.opts.timeouts,
    };
    const record = this.deps.record;
    const core =
      record === undefined ? new HeightConsensus(ctx) : recordingCore(ctx, record, () => this.now());
    this.core = core;
    metrics.consensusRound.set(0);
    this.apply(core.start());
    this.next.release(this.height, (m) => this.onMessage(m));
    this.stopRebroadcast();
    const active = () => this.core === core && this.deciding;
    const resend = () => this.apply(core.rebroadcast());
    this.stopRebroadcast = resendWhileQuiet(ticker, this.opts.rebroadcastMs, core, active, resend);
  }

  private apply(actions: ConsensusAction[]): void {
    for (const a of actions) {
      if (a.kind === 'broadcast-proposal') this.outbox.proposal(a.proposal);
      else if (a.kind === 'broadcast-vote') this.outbox.vote(a.vote);
      else if (a.kind === 'decide') void this.commit(a.block, a.commit, a.blockHash);
      else {
        const ms = this.timeoutMs(a);
        const due = this.now() + ms;
        // Under 'height/': every timer of a height is cancelled when the next one starts.
        this.deps.ticker.schedule(`height/${a.step}/${a.round}`, ms, () => {
          if (!this.core || this.height !== a.height || !this.deciding) return;
          if (this.pace.timeoutsHeld(a.height)) {
            this.heldTimeouts.push(a);
            return;
          }
          if (a.step === 'propose')
            this.slots.proposeTimedOut(this.core, this.height, a.round, {
              sinceHeightMs: this.now() - this.heightStartedAt,
              timerLateMs: this.now() - due,
            });
          this.apply(this.core.onTimeout(a.step, a.round));
          this.deps.metrics.consensusRound.set(this.core.round);
        });
      }
    }
  }

  /**
   * A timeout's length: the core's, but in a round 0 not ending before the start grace does. Every
   * height's round 0, not only the first's: a quorum of the early nodes goes on without a late one,
   * whose turn to propose comes a few heights later (a threads devnet started under load took 16 s).
   */
  private timeoutMs(a: Extract<ConsensusAction, { kind: 'schedule-timeout' }>): number {
    return a.round === 0 ? Math.max(a.ms, this.graceUntil - this.now()) : a.ms;
  }

  private async commit(block: Block, commit: Commit, hash: string): Promise<void> {
    const { service, metrics, logger, ticker } = this.deps;
    this.committing = true;
    try {
      const committed = await service.commitDecided(block, commit, this.blocks.resultOf(hash));
      if (committed) metrics.consensusRounds.observe(commit.round + 1);
    } catch (e) {
      // Logged once a height; tried again on the ticker (a full disk freed: docs/PROTOCOL.md "Disk faults").
      if (this.commitFailures++ === 0)
        logger.error('commit of a decided block failed; trying again', {
          height: block.header.height,
          error: (e as Error).message,
          retry_ms: COMMIT_RETRY_MS,
        });
      this.committing = false;
      ticker.schedule('height/commit-retry', COMMIT_RETRY_MS, () => {
        if (!this.stopped && this.height === block.header.height && service.state.height < this.height)
          void this.commit(block, commit, hash);
      });
      return;
    } finally {
      this.committing = false;
    }
    this.enterNext(true);
  }

  /**
   * Enters the height after the last committed one when the pace lets it: `paced`, one block time
   * (the pace's) after this one started, else at once; while held, when the pace changes.
   */
  private enterNext(paced: boolean): void {
    const { service, ticker } = this.deps;
    const next = service.state.height + 1;
    ticker.cancel('height/enter');
    if (!this.pace.mayEnter(next)) {
      this.held = true;
      return;
    }
    if (this.held) this.graceFrom();
    this.held = false;
    if (!paced) {
      this.enterHeight();
      return;
    }
    // Pace heights at the block time: the next one starts block_time after this one started.
    const wait = Math.max(
      0,
      this.heightStartedAt + this.pace.waitMs(next, this.opts.blockTimeMs) - this.now(),
    );
    ticker.schedule('height/enter', wait, () => {
      if (service.state.height >= this.height) this.enterHeight();
    });
  }

  /** The pace changed: a waiting node decides again when to enter; held timeouts of its height go on. */
  private onPaceChange(): void {
    if (this.stopped) return;
    if (this.core === null) {
      if (this.held) this.enterNext(false); // held from its start
    } else if (this.deciding) {
      if (this.pace.timeoutsHeld(this.height) || this.heldTimeouts.length === 0) return;
      const due = this.heldTimeouts.map((a) => ({ ...a }));
      this.heldTimeouts = [];
      this.graceFrom();
      this.apply(due);
    } else if (!this.committing && this.deps.service.state.height >= this.height) this.enterNext(true);
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
      if (where.reason === 'far-ahead') void this.catchUp.run();
      return where;
    }
    if (where === 'next' || this.core === null) return this.early(m);
    const verdict = this.auth.check(m, this.validators);
    if (verdict.kind !== 'accept') return verdict;
    if (m.kind === 'vote') this.deps.metrics.votes.inc({ kind: m.vote.kind });
    // Decided here, or committed by block sync: passed on all the same (peers may still need it).
    if (!this.deciding) return ACCEPT;
    this.catchUp.heardOne();
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
   * A message for the height after the current one (or before consensus started): checked at
   * once if the current height is committed, else its verdict waits (nextHeightBuffer.ts). While
   * this node still decides the current height, it shows that others have decided it.
   */
  private early(m: Message): Pending {
    const height = heightOf(m);
    const state = this.deps.service.state;
    if (height === state.height + 1 && height === this.height + 1 && this.core !== null)
      return this.next.checkNow(m, state, (msg, set) => this.auth.check(msg, set));
    if (height === this.height + 1 && this.deciding) this.catchUp.nextHeightSeen();
    return this.next.defer(m);
  }
}

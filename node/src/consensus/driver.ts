/**
 * Runs consensus for the node: one HeightConsensus per height, fed by gossip (proposals on
 * /chain/blocks/1.0.0, votes on /chain/votes/1.0.0) and by timers; its actions go out as gossip,
 * timers and commits. Every message is authenticated here, in one place, against the active set
 * of its height, and gets its gossip verdict: accept (valid, passed on), ignore (stale, far
 * ahead) or reject (malformed or forged: the peer is penalized). A message for the next height
 * gets its verdict when the node enters that height. Block sync runs at start, when a message
 * shows the network ahead, and when the height has not moved for a while.
 */
import {
  activeValidators,
  type Block,
  BlockError,
  type BlockResult,
  blockHash,
  type Equivocation,
  type Validator,
  type Vote,
  verifyProposalSignature,
  verifyVote,
} from '../chain/index.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import { decodeProposal, decodeVote, encodeProposal, encodeVote } from '../p2p/messages.js';
import type { P2PNetwork, Verdict } from '../p2p/network.js';
import { TOPIC_BLOCKS, TOPIC_VOTES } from '../p2p/protocol.js';
import type { ChainService } from '../service/chainService.js';
import type { Logger } from '../util/logger.js';
import { EquivocationDetector } from './equivocationDetector.js';
import type { Equivocator } from './equivocatorPort.js';
import { HeightConsensus } from './heightConsensus.js';
import { ResendSchedule } from './resend.js';
import type { ConsensusSigner } from './signer.js';
import type { BlockSync } from './sync.js';
import type { ConsensusAction, Proposal, Timeouts } from './types.js';

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

/**
 * How long a node still deciding a height waits for its own decision after a message of the next
 * height showed that peers have decided it, before it fetches the block by block sync. The
 * decision's last precommits are usually a few gossip hops behind such a message.
 */
const BEHIND_GRACE_MS = 400;
/**
 * Silence (no proposal or vote of the height) after which a node still deciding a height asks a
 * few peers whether they have decided it. Every node asks during a stopped proposer's slot, so
 * each asks SILENCE_ASK_PEERS peers, not all.
 */
const SILENCE_MS = 1000;
const SILENCE_ASK_PEERS = 4;

type Message = { kind: 'proposal'; proposal: Proposal } | { kind: 'vote'; vote: Vote };
/** A message for the next height, and the gossip verdict it gets when the node enters that height. */
type Buffered = Message & { settle: (verdict: Verdict | Promise<Verdict>) => void };

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
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly validated = new Map<string, BlockResult>();
  private readonly verified = new Set<string>();
  private readonly equivocations = new EquivocationDetector();
  private future: Buffered[] = [];
  /** Rounds of this height whose propose timeout fired here (a proposal arriving later is logged once). */
  private readonly proposeTimedOut = new Set<number>();
  private committing = false;
  private stopped = false;
  private rebroadcastTimer: NodeJS.Timeout | null = null;
  private joinTimer: NodeJS.Timeout | null = null;
  private behindTimer: NodeJS.Timeout | null = null;
  /** The active set of the next height, computed once the current height is committed. */
  private nextValidators: { height: number; validators: Validator[] } | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private readonly myAddress: string | null;

  constructor(
    private readonly service: ChainService,
    private readonly network: P2PNetwork | null,
    private readonly sync: BlockSync | null,
    private readonly metrics: NodeMetrics,
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly opts: DriverOptions,
  ) {
    this.myAddress = opts.signer?.address ?? null;
  }

  async start(): Promise<void> {
    this.network?.subscribe(TOPIC_BLOCKS, (data) => this.count(TOPIC_BLOCKS, this.onProposalBytes(data)));
    this.network?.subscribe(TOPIC_VOTES, (data) => this.count(TOPIC_VOTES, this.onVoteBytes(data)));
    // A peer that just joined missed what we sent before: send our current messages now (once
    // per burst of joins), so a network starting together decides its first block without
    // waiting for the periodic rebroadcast.
    this.network?.onTopicPeerJoined(TOPIC_VOTES, () => {
      if (this.joinTimer !== null) return;
      this.joinTimer = setTimeout(() => {
        this.joinTimer = null;
        if (this.core && this.deciding && !this.stopped) this.apply(this.core.rebroadcast());
      }, 20);
    });
    const catchUpStarted = this.now();
    await this.catchUp();
    this.logger.info('consensus started', {
      height: this.service.state.height + 1,
      catch_up_ms: this.now() - catchUpStarted,
    });
    this.enterHeight();
    this.stallTimer = setInterval(() => this.checkStall(), 250);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.rebroadcastTimer) clearInterval(this.rebroadcastTimer);
    if (this.stallTimer) clearInterval(this.stallTimer);
    if (this.joinTimer) clearTimeout(this.joinTimer);
    if (this.behindTimer) clearTimeout(this.behindTimer);
    for (const m of this.future) m.settle('ignore');
    this.future = [];
  }

  private count(topic: string, verdict: Verdict | Promise<Verdict>): Verdict | Promise<Verdict> {
    if (typeof verdict === 'string') {
      this.metrics.gossipMessages.inc({ topic, verdict });
      return verdict;
    }
    return verdict.then((v) => this.count(topic, v));
  }

  private async catchUp(askPeers?: number): Promise<void> {
    if (this.sync === null || this.sync.active) return;
    try {
      await this.sync.catchUp(askPeers);
    } catch (e) {
      this.logger.warn('sync failed', { error: (e as Error).message });
    }
    // A height committed meanwhile (by this run, even one that failed midway, or by another) is
    // left for the next one: waiting for a run that applies blocks could wait forever once the
    // peers stop being ahead. Before consensus starts (core null), start() enters.
    if (!this.stopped && this.core !== null && !this.committing && this.service.state.height >= this.height)
      this.enterHeight();
  }

  /**
   * Block sync when the height has not moved for a while (asking every peer), and sooner when
   * nothing of the height has arrived for a second while it is still undecided (asking a few):
   * the others have most likely decided it and moved on, and this node lost the messages in
   * gossip. Were it the next proposer, waiting out the long stall would cost its slot, since the
   * others wait for its proposal only the propose timeout.
   */
  private checkStall(): void {
    if (this.committing) return;
    const stallMs = Math.max(3000, 5 * this.opts.blockTimeMs);
    const quietMs = this.now() - this.lastProgressAt;
    if (quietMs > stallMs) {
      this.lastProgressAt = this.now();
      void this.catchUp();
    } else if (
      this.deciding &&
      quietMs > Math.max(SILENCE_MS, this.opts.blockTimeMs) &&
      this.now() - this.askedAt > SILENCE_MS
    ) {
      this.logger.debug('nothing of this height for a while: asking peers', { height: this.height, quietMs });
      this.askedAt = this.now();
      void this.catchUp(SILENCE_ASK_PEERS);
    }
    this.metrics.peers.set(this.network?.connectedPeers().length ?? 0);
  }

  /** Starts consensus for the height after the last committed block. */
  private enterHeight(): void {
    if (this.stopped) return;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const state = this.service.state;
    const previous = { height: this.height, startedAt: this.heightStartedAt };
    this.height = state.height + 1;
    this.validators = activeValidators(state);
    this.validated.clear();
    this.proposeTimedOut.clear();
    this.equivocations.forgetBelow(this.height);
    // Entering well after the block time's pace (a late decision or commit) delays this node's
    // proposal, if it is the proposer: said, so that a missed slot can be traced to its cause.
    const lateMs = this.now() - (previous.startedAt + this.opts.blockTimeMs);
    if (previous.height > 0 && previous.height === this.height - 1 && lateMs > 250)
      this.logger.info('height entered late', { height: this.height, lateMs });
    this.heightStartedAt = this.now();
    this.lastProgressAt = this.now();
    this.heardThisHeight = false;
    const signer =
      this.opts.signer !== null && this.validators.some((v) => v.address === this.myAddress)
        ? this.opts.signer
        : null;
    this.core = new HeightConsensus({
      chainId: state.params.chainId,
      height: this.height,
      validators: this.validators,
      signer,
      isValid: (block) => this.isValid(block),
      build: (round) => this.build(round),
      timeouts: this.opts.timeouts,
    });
    this.metrics.consensusRound.set(0);
    this.apply(this.core.start());
    const heightOf = (m: Buffered) => (m.kind === 'vote' ? m.vote.height : m.proposal.height);
    const buffered = this.future;
    this.future = buffered.filter((m) => heightOf(m) > this.height);
    for (const m of buffered) {
      if (heightOf(m) > this.height) continue;
      if (heightOf(m) < this.height) m.settle('ignore');
      else m.settle(m.kind === 'vote' ? this.onVote(m.vote) : this.onProposal(m.proposal));
    }
    if (this.rebroadcastTimer) clearInterval(this.rebroadcastTimer);
    const core = this.core;
    const resend = new ResendSchedule(this.opts.rebroadcastMs, core.progress, this.now());
    this.rebroadcastTimer = setInterval(
      () => {
        if (this.core === core && this.deciding && resend.due(core.progress, this.now()))
          this.apply(core.rebroadcast());
      },
      Math.max(10, Math.floor(this.opts.rebroadcastMs / 4)),
    );
  }

  private isValid(block: Block): boolean {
    if (block.header.timestamp > Math.floor(this.now() / 1000) + this.opts.maxClockDriftSec) return false;
    try {
      this.validated.set(blockHash(block.header), this.service.validateBlock(block));
      return true;
    } catch (e) {
      if (!(e instanceof BlockError)) throw e;
      this.logger.warn('invalid block proposed', {
        height: block.header.height,
        code: e.code,
        error: e.message,
      });
      return false;
    }
  }

  private build(round: number): Block {
    const { block, result } = this.service.buildProposal(this.opts.privateKey!, round);
    this.validated.set(blockHash(block.header), result);
    return block;
  }

  private apply(actions: ConsensusAction[]): void {
    for (const a of actions) {
      switch (a.kind) {
        case 'broadcast-proposal':
          if (this.equivocating(a.proposal.proposer))
            this.network?.publishSplit(TOPIC_BLOCKS, [
              encodeProposal(a.proposal, this.now()),
              encodeProposal(this.opts.equivocator!.twinProposal(this.chainId, a.proposal), this.now()),
            ]);
          else void this.network?.publish(TOPIC_BLOCKS, encodeProposal(a.proposal, this.now()));
          break;
        case 'broadcast-vote':
          if (this.equivocating(a.vote.validator))
            this.network?.publishSplit(TOPIC_VOTES, [
              encodeVote(a.vote, this.now()),
              encodeVote(this.opts.equivocator!.twinVote(this.chainId, a.vote), this.now()),
            ]);
          else void this.network?.publish(TOPIC_VOTES, encodeVote(a.vote, this.now()));
          break;
        case 'schedule-timeout': {
          const height = a.height;
          const due = this.now() + a.ms;
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            if (this.core && this.height === height && this.deciding) {
              if (a.step === 'propose' && this.core.round === a.round && this.core.step === 'propose')
                this.logProposeTimeout(a.round, due);
              this.apply(this.core.onTimeout(a.step, a.round));
              this.metrics.consensusRound.set(this.core.round);
            }
          }, a.ms);
          this.timers.add(timer);
          break;
        }
        case 'decide':
          void this.commit(a.block, a.commit, a.blockHash);
          break;
      }
    }
  }

  /** TEST ONLY: whether this message is this (Byzantine) validator's own, to be sent in two versions. */
  private equivocating(signer: string): boolean {
    return (this.opts.equivocator ?? null) !== null && signer === this.myAddress;
  }

  private get chainId(): string {
    return this.service.state.params.chainId;
  }

  private async commit(
    block: Block,
    commit: Parameters<ChainService['commitDecided']>[1],
    hash: string,
  ): Promise<void> {
    this.committing = true;
    try {
      const committed = await this.service.commitDecided(block, commit, this.validated.get(hash));
      if (committed) this.metrics.consensusRounds.observe(commit.round + 1);
    } catch (e) {
      this.logger.error('commit of a decided block failed', {
        height: block.header.height,
        error: (e as Error).message,
      });
    } finally {
      this.committing = false;
    }
    // Pace heights at the block time: the next one starts block_time after this one started.
    const wait = Math.max(0, this.heightStartedAt + this.opts.blockTimeMs - this.now());
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.service.state.height >= this.height) this.enterHeight();
    }, wait);
    this.timers.add(timer);
  }

  /**
   * Says why a slot is about to be missed: which proposer did not deliver, how long after the
   * height began, and how late this node's own timer fired (a busy event loop or a starved
   * process shows there, not as a slow proposer).
   */
  private logProposeTimeout(round: number, due: number): void {
    this.proposeTimedOut.add(round);
    this.logger.info('no proposal in time', {
      height: this.height,
      round,
      proposer: this.core!.proposerOf(round).address,
      sinceHeightMs: this.now() - this.heightStartedAt,
      timerLateMs: this.now() - due,
    });
  }

  private validatorOf(address: string): Validator | undefined {
    return this.validators.find((v) => v.address === address);
  }

  /**
   * Whether the current height is still to be decided here: not being committed, and not
   * committed meanwhile by block sync (which applies blocks while this height's consensus
   * still runs; the node enters the next height when the sync ends). Its consensus must then
   * stop acting: as a proposer it would build its block on the state after the height.
   */
  private get deciding(): boolean {
    return this.core !== null && !this.committing && this.service.state.height < this.height;
  }

  /** Where a message of `height` stands: current, buffered for the next height, stale, or far ahead. */
  private placement(height: number): 'current' | 'next' | 'stale' | 'ahead' {
    if (height === this.height && this.core !== null) return 'current';
    if (height === this.height + 1 || height === this.height) return 'next';
    if (height < this.height) return 'stale';
    return 'ahead';
  }

  /**
   * Keeps a message for the next height until the node enters it; its gossip verdict waits too.
   * Ignoring it now would stop it here: the proposer of the next height enters it while most
   * nodes still wait out the block time, and the peers that reach the proposer only through
   * such a node would not see its proposal before their propose timeout.
   */
  private defer(m: Message): Verdict | Promise<Verdict> {
    if (this.future.length >= 1000) return 'ignore';
    return new Promise<Verdict>((resolve) =>
      this.future.push({ ...m, settle: (v) => void Promise.resolve(v).then(resolve) }),
    );
  }

  private onVoteBytes(data: Uint8Array): Verdict | Promise<Verdict> {
    const vote = decodeVote(data);
    if (typeof vote === 'string') return 'reject';
    return this.onVote(vote);
  }

  private onVote(vote: Vote): Verdict | Promise<Verdict> {
    const where = this.placement(vote.height);
    if (where === 'stale') return 'ignore';
    if (where === 'ahead') {
      void this.catchUp();
      return 'ignore';
    }
    if (where === 'next' || this.core === null) return this.early({ kind: 'vote', vote });
    const v = this.validatorOf(vote.validator);
    if (v === undefined) return 'reject';
    if (!this.authentic({ kind: 'vote', vote }, v)) return 'reject';
    this.metrics.votes.inc({ kind: vote.kind });
    // Decided here, or committed by block sync: passed on all the same (peers may still need it).
    if (!this.deciding) return 'accept';
    this.lastProgressAt = this.now();
    this.heardThisHeight = true;
    this.apply(this.core.onVote(vote));
    this.metrics.consensusRound.set(this.core.round);
    return 'accept';
  }

  private onProposalBytes(data: Uint8Array): Verdict | Promise<Verdict> {
    const proposal = decodeProposal(data);
    if (typeof proposal === 'string') return 'reject';
    return this.onProposal(proposal);
  }

  private onProposal(p: Proposal): Verdict | Promise<Verdict> {
    const where = this.placement(p.height);
    if (where === 'stale') return 'ignore';
    if (where === 'ahead') {
      void this.catchUp();
      return 'ignore';
    }
    if (where === 'next' || this.core === null) return this.early({ kind: 'proposal', proposal: p });
    const v = this.validatorOf(p.proposer);
    if (v === undefined) return 'reject';
    if (!this.authentic({ kind: 'proposal', proposal: p }, v)) return 'reject';
    if (!this.deciding) return 'accept';
    this.lastProgressAt = this.now();
    this.heardThisHeight = true;
    if (this.proposeTimedOut.delete(p.round))
      this.logger.info('proposal after its propose timeout', {
        height: p.height,
        round: p.round,
        proposer: p.proposer,
        sinceHeightMs: this.now() - this.heightStartedAt,
      });
    this.apply(this.core.onProposal(p));
    return 'accept';
  }

  /**
   * Whether a message is signed by `signer`, its sender's validator. Each message is checked once:
   * the memo key covers the content, so a seen signature on other content is checked again (and
   * fails). A first authentic message is also shown to the equivocation detector.
   */
  private authentic(m: Message, signer: Validator): boolean {
    const chainId = this.service.state.params.chainId;
    if (m.kind === 'vote') {
      const { vote } = m;
      const memo = `v:${vote.kind}:${vote.height}:${vote.round}:${vote.blockHash}:${vote.validator}:${vote.signature}`;
      if (this.verified.has(memo)) return true;
      if (!verifyVote(chainId, vote, signer.pubKey)) return false;
      this.remember(memo);
      this.onEquivocation(this.equivocations.observeVote(chainId, vote, signer.pubKey, this.now()));
      return true;
    }
    const p = m.proposal;
    const memo = `p:${p.height}:${p.round}:${p.polRound}:${p.blockHash}:${p.proposer}:${p.signature}`;
    if (this.verified.has(memo)) return true;
    if (!verifyProposalSignature(chainId, p, signer.pubKey)) return false;
    this.remember(memo);
    this.onEquivocation(this.equivocations.observeProposal(chainId, p, signer.pubKey, this.now()));
    return true;
  }

  /**
   * Evidence is kept (once per pair) and counted by the chain service; its message still counts
   * as authentic and is passed on, so that every peer sees both versions: a polka or a decision
   * may rest on either (VoteSet counts every signed vote for a block).
   */
  private onEquivocation(e: Equivocation | null): void {
    if (e === null) return;
    this.service
      .recordEquivocation(e)
      .then((fresh) => {
        if (fresh)
          this.logger.warn('equivocation: a validator signed two different messages for one step', {
            validator: e.validator,
            kind: e.kind,
            height: e.height,
            round: e.round,
            first: e.first.block_hash,
            second: e.second.block_hash,
          });
      })
      .catch((err: unknown) => this.logger.error('evidence not kept', { error: err as Error }));
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
  private early(m: Message): Verdict | Promise<Verdict> {
    const height = m.kind === 'vote' ? m.vote.height : m.proposal.height;
    const state = this.service.state;
    if (height === state.height + 1 && height === this.height + 1 && this.core !== null) {
      if (this.future.length >= 1000) return 'ignore';
      if (this.nextValidators?.height !== height)
        this.nextValidators = { height, validators: activeValidators(state) };
      const sender = m.kind === 'vote' ? m.vote.validator : m.proposal.proposer;
      const signer = this.nextValidators.validators.find((v) => v.address === sender);
      if (signer === undefined || !this.authentic(m, signer)) return 'reject';
      this.future.push({ ...m, settle: () => undefined });
      return 'accept';
    }
    if (height === this.height + 1 && this.deciding) this.syncIfStillDeciding();
    return this.defer(m);
  }

  private syncIfStillDeciding(): void {
    if (this.behindTimer !== null) return;
    const height = this.height;
    // A node that has heard nothing of its height from anyone, in the grace time since it
    // entered it, will not get the decision by gossip: it missed those messages (it connected
    // after they were sent, as the last node of a devnet to start did). It fetches the block now.
    const graceMs = this.heardThisHeight
      ? BEHIND_GRACE_MS
      : Math.max(0, this.heightStartedAt + BEHIND_GRACE_MS - this.now());
    this.behindTimer = setTimeout(() => {
      this.behindTimer = null;
      if (this.height === height && this.deciding && !this.stopped) {
        this.logger.info('peers are past this height: block sync', { height });
        void this.catchUp();
      }
    }, graceMs);
  }

  private remember(memo: string): void {
    this.verified.add(memo);
    if (this.verified.size > 50_000) this.verified.clear();
  }
}

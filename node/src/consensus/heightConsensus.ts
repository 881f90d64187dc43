/**
 * Tendermint consensus for one height (Buchman, Kwon, Milosevic, "The latest gossip on BFT
 * consensus", 2018, Algorithm 1), as a deterministic state machine: proposals, votes and
 * timeouts go in; broadcasts, timeouts to schedule and the decision come out. No clock, no
 * network: the driver (driver/driver.ts) does the I/O. Inputs are already authenticated (signatures
 * checked against the active set by the driver); this class checks who may send what.
 *
 * Safety rests on locking: a validator that precommitted a block in round r only prevotes a
 * different block later if it sees more than 2/3 prevotes for it in a round >= r (polRound).
 * Signatures come from the injected signer (ownMessages.ts), which may refuse one (it would be
 * double-signing after a restart, or its record failed): the core then sends nothing and counts
 * nothing for itself in that step, and signs a refused vote again at each re-send while it stays
 * at that step; the height goes on by timeouts where that vote is not needed. A restarted
 * validator resumes where it last signed, locked as it was, holding the locked block and its
 * polka, and the proposal it signed (ConsensusSigner.resume).
 */

import {
  type Block,
  type Commit,
  oneThirdPlus,
  type Proposal,
  proposerIndex,
  type Validator,
  type Vote,
  type VoteKind,
} from '../chain/index.js';
import type { HeightContext } from './heightContext.js';
import { OwnMessages } from './ownMessages.js';
import { addKeptPolka, resumedProposal, resumedVote } from './resume.js';
import type { LockedBlock, Resume } from './signer.js';
import type { ConsensusAction, Step } from './types.js';
import { VoteSet } from './voteSet.js';

interface Known {
  readonly proposal: Proposal;
  readonly valid: boolean;
}

/** A bound on the versions of one round's proposal kept (each is validated: a block execution). */
const MAX_PROPOSALS_PER_ROUND = 4;

export class HeightConsensus {
  round = 0;
  step: Step = 'propose';
  private lockedRound = -1;
  private lockedHash: string | null = null;
  private validRound = -1;
  private validBlock: Block | null = null;
  private validHash: string | null = null;
  /**
   * The proposals of each round: the first one received (the one this node prevotes on), then
   * any other its proposer signed (equivocation; at most MAX_PROPOSALS_PER_ROUND). Their blocks
   * all count for a polka and for the decision: the network may settle on the version this node
   * did not see first.
   */
  private readonly proposals = new Map<number, Known[]>();
  /** Blocks seen in any proposal, by hash (the commit rule may need one from another round). */
  private readonly blocks = new Map<string, { block: Block; valid: boolean }>();
  private readonly prevotes = new Map<number, VoteSet>();
  private readonly precommits = new Map<number, VoteSet>();
  private readonly senders = new Map<number, Set<string>>();
  private readonly fired = new Set<string>();
  /**
   * Counts this node's own steps: a new round, a vote cast, a block made valid (and locked),
   * the decision. The driver re-sends this node's messages only while it stays unchanged
   * (a node that moves on needs nothing re-sent; one that waits may be waiting for peers that
   * lost what it sent).
   */
  progress = 0;
  private decided = false;
  private decidedRound = -1;
  private out: ConsensusAction[] = [];
  private readonly members: Set<string>;
  /** What this validator signed at this height before a restart (null: nothing). */
  private readonly resumed: Resume | null;
  /** This validator's own proposals and votes, signed (null: not a validator here). */
  private readonly own: OwnMessages | null;

  constructor(private readonly ctx: HeightContext) {
    this.members = new Set(ctx.validators.map((v) => v.address));
    this.resumed = ctx.signer?.resume(ctx.height) ?? null;
    this.own = ctx.signer === null ? null : new OwnMessages(ctx, ctx.signer);
    const lock = this.resumed?.lock;
    if (lock) {
      this.lockedRound = lock.round;
      this.lockedHash = lock.blockHash;
      if (lock.kept !== null) this.resumeValidBlock(lock.blockHash, lock.kept);
    }
  }

  /**
   * The block a restarted validator is locked on, with the polka that locked it, is its valid
   * block again: it re-proposes it with that polka's round as pol_round (and re-sends the polka,
   * see rebroadcast), and decides it as soon as the precommits it resumed with are a quorum.
   * Without a polka that still counts (a damaged file), it stays locked but holds no valid block.
   */
  private resumeValidBlock(hash: string, kept: LockedBlock): void {
    const prevotes = this.votes('prevote', kept.round);
    addKeptPolka(prevotes, kept, hash, this.ctx.height, this.members);
    if (!prevotes.hasQuorumFor(hash) || !this.ctx.isValid(kept.block)) return;
    this.validRound = kept.round;
    this.validBlock = kept.block;
    this.validHash = hash;
    this.blocks.set(hash, { block: kept.block, valid: true });
  }

  get isDecided(): boolean {
    return this.decided;
  }

  proposerOf(round: number): Validator {
    return this.ctx.validators[proposerIndex(this.ctx.height, round, this.ctx.validators.length)]!;
  }

  start(): ConsensusAction[] {
    const resumed = this.resumed;
    if (resumed === null) this.startRound(0);
    else if (resumed.last.step === 'propose') this.startRound(resumed.round);
    else this.resumeAfterVote(resumed);
    this.evaluate();
    return this.flush();
  }

  /**
   * A restarted validator whose last signature at this height was a vote re-enters that round at
   * that step (it signed nothing below it, and may sign nothing below it), with that vote counted
   * and sent again: without a write-ahead log it is the one vote of its own it still has, and the
   * peers that lost it with the crash need it as much as it does. So is its proposal of that round,
   * when it was the proposer: peers stopped with it hold the votes for that block, not the block.
   */
  private resumeAfterVote(resumed: Resume): void {
    const vote = resumedVote(resumed, this.ctx.height, this.ctx.signer!.address);
    this.round = resumed.round;
    this.step = vote.kind;
    this.progress++;
    this.votes(vote.kind, resumed.round).add(vote);
    this.noteSender(resumed.round, vote.validator);
    this.out.push({ kind: 'broadcast-vote', vote });
    const proposal = resumedProposal(resumed, this.ctx.height, vote.validator, this.ctx.isValid);
    if (proposal === null) return;
    this.blocks.set(proposal.blockHash, { block: proposal.block, valid: true });
    this.proposals.set(resumed.round, [{ proposal, valid: true }]);
    this.out.push({ kind: 'broadcast-proposal', proposal });
  }

  onProposal(p: Proposal): ConsensusAction[] {
    if (this.decided || p.height !== this.ctx.height) return [];
    const round = this.proposals.get(p.round) ?? [];
    if (round.length >= MAX_PROPOSALS_PER_ROUND || round.some((k) => k.proposal.blockHash === p.blockHash))
      return [];
    if (p.proposer !== this.proposerOf(p.round).address || p.polRound >= p.round || p.polRound < -1)
      return [];
    // A fresh block must be built in the round it is proposed in; a re-proposal carries an older block.
    const headerRound = p.block.header.round;
    if ((p.polRound === -1 && headerRound !== p.round) || headerRound > p.round) return [];
    const cached = this.blocks.get(p.blockHash);
    const valid = cached ? cached.valid : this.ctx.isValid(p.block);
    this.blocks.set(p.blockHash, { block: p.block, valid });
    this.proposals.set(p.round, [...round, { proposal: p, valid }]);
    this.noteSender(p.round, p.proposer);
    this.evaluate();
    return this.flush();
  }

  onVote(v: Vote): ConsensusAction[] {
    if (this.decided || v.height !== this.ctx.height || !this.members.has(v.validator)) return [];
    const added = this.votes(v.kind, v.round).add(v);
    if (!added) return [];
    this.noteSender(v.round, v.validator);
    this.evaluate();
    return this.flush();
  }

  onTimeout(step: Step, round: number): ConsensusAction[] {
    if (this.decided || round !== this.round) return [];
    if (step === 'propose' && this.step === 'propose') this.castVote('prevote', null);
    else if (step === 'prevote' && this.step === 'prevote') this.castVote('precommit', null);
    else if (step === 'precommit') this.startRound(this.round + 1);
    this.evaluate();
    return this.flush();
  }

  /**
   * This node's own messages of this height, to send again. Gossip loses messages (a partition,
   * a peer that joined late); Tendermint's liveness assumes they reach every peer eventually, so
   * the driver re-sends these while this node waits (ResendSchedule) and when a peer joins,
   * until it moves to the next height. Votes of earlier rounds matter too: a re-proposed block
   * is only prevoted by a locked node that sees the prevotes of its POL round, and each
   * validator re-sends its own (at most the last 16 rounds).
   */
  rebroadcast(): ConsensusAction[] {
    if (this.ctx.signer === null) return [];
    const me = this.ctx.signer.address;
    const out: ConsensusAction[] = this.signAgain();
    const last = this.decided ? this.decidedRound : this.round;
    const own = this.proposals.get(last)?.[0];
    if (own && own.proposal.proposer === me) out.push({ kind: 'broadcast-proposal', proposal: own.proposal });
    for (let r = last; r >= Math.max(0, last - 15); r--) {
      for (const kind of ['precommit', 'prevote'] as const) {
        const vote = this.votes(kind, r).voteOf(me);
        if (vote) out.push({ kind: 'broadcast-vote', vote });
      }
    }
    // The proof of our valid (and locked) block: the prevotes that made it valid, signed by
    // others. A validator that was down or cut off in that round has lost them; without them it
    // refuses the re-proposal (its pol_round names that round), while we refuse anything else,
    // and the height goes round after round with no decision. Tendermint gossips them for the
    // same reason.
    if (this.validHash !== null && this.validRound >= 0) {
      for (const vote of this.votes('prevote', this.validRound).votesFor(this.validHash))
        if (vote.validator !== me) out.push({ kind: 'broadcast-vote', vote });
    }
    return out;
  }

  private flush(): ConsensusAction[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private votes(kind: VoteKind, round: number): VoteSet {
    const sets = kind === 'prevote' ? this.prevotes : this.precommits;
    const set = sets.get(round) ?? new VoteSet(this.ctx.validators.length);
    sets.set(round, set);
    return set;
  }

  private noteSender(round: number, validator: string): void {
    this.senders.set(round, (this.senders.get(round) ?? new Set<string>()).add(validator));
  }

  private scheduleTimeout(step: Step, round: number): void {
    const ms = this.ctx.timeouts[step](round);
    this.out.push({ kind: 'schedule-timeout', step, height: this.ctx.height, round, ms });
  }

  /** Runs a rule once per key (the paper's "for the first time"). */
  private once(key: string): boolean {
    if (this.fired.has(key)) return false;
    this.fired.add(key);
    return true;
  }

  private startRound(round: number): void {
    this.round = round;
    this.step = 'propose';
    this.progress++;
    const own = this.own;
    if (own !== null && this.proposerOf(round).address === own.signer.address && this.propose(own, round))
      return;
    this.scheduleTimeout('propose', round);
  }

  /** Proposes the valid block or a new one; false when the signer refused (nothing is sent then). */
  private propose(own: OwnMessages, round: number): boolean {
    // A restarted proposer sends what it signed before, the only proposal it may sign for this round.
    const kept = this.resumed?.proposal?.round === round ? this.resumed.proposal : null;
    const block = kept?.block ?? this.validBlock ?? this.ctx.build(round);
    const polRound = kept?.polRound ?? (this.validBlock ? this.validRound : -1);
    const proposal = own.proposal(round, block, polRound);
    if (proposal === null) return false;
    this.out.push({ kind: 'broadcast-proposal', proposal });
    this.blocks.set(proposal.blockHash, { block, valid: true });
    this.proposals.set(round, [{ proposal, valid: true }, ...(this.proposals.get(round) ?? [])]);
    this.noteSender(round, proposal.proposer);
    return true;
  }

  /** Signs and sends this node's vote of the step it enters (a refusal is signed again later: signAgain). */
  private castVote(kind: VoteKind, hash: string | null, locked?: LockedBlock): void {
    this.step = kind === 'prevote' ? 'prevote' : 'precommit';
    this.progress++;
    if (this.own === null) return;
    this.own.refused = null;
    this.sendVote(
      this.own.vote({ kind, round: this.round, hash, ...(locked === undefined ? {} : { locked }) }),
    );
  }

  /**
   * The vote refused before, signed again while this node is still at its step (a vote of a step
   * left behind would be refused as a regression anyway); what that leads to (the vote sent, the
   * rules it enables) comes out with the re-send.
   */
  private signAgain(): ConsensusAction[] {
    const refused = this.own?.refused ?? null;
    if (refused === null || this.decided || refused.round !== this.round || this.step !== refused.kind)
      return [];
    if (!this.sendVote(this.own!.vote(refused))) return [];
    this.progress++;
    this.evaluate();
    return this.flush();
  }

  /** Counts this node's signed vote and sends it; false for none (refused). */
  private sendVote(vote: Vote | null): boolean {
    if (vote === null) return false;
    this.votes(vote.kind, vote.round).add(vote);
    this.noteSender(vote.round, vote.validator);
    this.out.push({ kind: 'broadcast-vote', vote });
    return true;
  }

  /** Applies every rule that holds until none does (each input may enable several). */
  private evaluate(): void {
    for (let guard = 0; guard < 64 && !this.decided; guard++) {
      if (!this.evaluateOnce()) return;
    }
  }

  private evaluateOnce(): boolean {
    // Decide: a proposal of some round and more than 2/3 precommits for its block in that round.
    for (const [round, set] of this.precommits) {
      const hash = set.quorumBlock();
      const known = hash === null ? undefined : this.blocks.get(hash);
      if (hash !== null && known?.valid) {
        this.decide(known.block, hash, round, set);
        return false;
      }
    }
    // Skip ahead: more than 1/3 of the validators are already in a later round.
    for (const [round, senders] of this.senders) {
      if (round > this.round && senders.size >= oneThirdPlus(this.ctx.validators.length)) {
        this.startRound(round);
        return true;
      }
    }
    const r = this.round;
    const current = this.proposals.get(r)?.[0];
    const prevotes = this.votes('prevote', r);
    const precommits = this.votes('precommit', r);

    if (this.step === 'propose' && current) {
      const p = current.proposal;
      if (p.polRound === -1) {
        const ok = current.valid && (this.lockedRound === -1 || this.lockedHash === p.blockHash);
        this.castVote('prevote', ok ? p.blockHash : null);
        return true;
      }
      if (this.votes('prevote', p.polRound).hasQuorumFor(p.blockHash)) {
        const ok = current.valid && (this.lockedRound <= p.polRound || this.lockedHash === p.blockHash);
        this.castVote('prevote', ok ? p.blockHash : null);
        return true;
      }
    }
    if (this.step === 'prevote' && prevotes.hasQuorumAny() && this.once(`prevote-timeout:${r}`)) {
      this.scheduleTimeout('prevote', r);
    }
    const polka =
      this.step === 'propose'
        ? undefined
        : this.proposals.get(r)?.find((k) => k.valid && prevotes.hasQuorumFor(k.proposal.blockHash));
    if (polka !== undefined && this.once(`polka:${r}`)) {
      this.validBlock = polka.proposal.block;
      this.validHash = polka.proposal.blockHash;
      this.validRound = r;
      this.progress++;
      if (this.step === 'prevote') {
        this.lockedHash = polka.proposal.blockHash;
        this.lockedRound = r;
        this.castVote('precommit', polka.proposal.blockHash, {
          block: polka.proposal.block,
          round: r,
          prevotes: prevotes.votesFor(polka.proposal.blockHash),
        });
      }
      return true;
    }
    if (this.step === 'prevote' && prevotes.hasQuorumFor(null)) {
      this.castVote('precommit', null);
      return true;
    }
    if (precommits.hasQuorumAny() && this.once(`precommit-timeout:${r}`)) {
      this.scheduleTimeout('precommit', r);
    }
    return false;
  }

  private decide(block: Block, hash: string, round: number, set: VoteSet): void {
    this.decided = true;
    this.decidedRound = round;
    this.progress++;
    const commit: Commit = {
      height: this.ctx.height,
      round,
      blockHash: hash,
      signatures: set.votesFor(hash).map((v) => ({ validator: v.validator, signature: v.signature })),
    };
    this.out.push({ kind: 'decide', block, commit, blockHash: hash });
  }
}

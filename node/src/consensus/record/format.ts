/**
 * A consensus record (docs/PROTOCOL.md, "Consensus records"): one node's consensus core as it
 * ran, height after height, as JSON lines. Each height starts with its context; then, in the order
 * they happened, the core's inputs (its start, each proposal and vote it was given, each timeout
 * that fired, each re-send), the answers of its edges (the signer's resume and signatures, the
 * validity of a block, the block this node built) and, after each input, the actions it answered
 * with. Replaying the inputs into a core whose edges answer from the record (replay.ts) must give
 * the same actions: the core is a pure state machine, so a difference is a difference of builds.
 * Votes and proposals are their gossip messages without sent_at, blocks the RPC's block JSON.
 */
import { type Block, blockFromJson, blockToJson, type Proposal, type Vote } from '../../chain/index.js';
import { decodeJson, decodeProposal, decodeVote, encodeProposal, encodeVote } from '../../p2p/messages.js';
import type { KeptProposal, LockedBlock, Resume } from '../signer.js';
import type { ConsensusAction, Step, Timeouts } from '../types.js';

export const RECORD_FORMAT = 'chain-consensus-record/v1';

/** Rounds whose timeouts a height's entry lists (later rounds go on by the last two's step). */
export const RECORDED_TIMEOUT_ROUNDS = 4;

/** An action as the record keeps it: what was sent, scheduled or decided, not its signatures. */
export type RecordedAction =
  | {
      readonly kind: 'proposal';
      readonly round: number;
      readonly pol_round: number;
      readonly block_hash: string;
    }
  | {
      readonly kind: 'vote';
      readonly vote: 'prevote' | 'precommit';
      readonly round: number;
      readonly block_hash: string | null;
    }
  | { readonly kind: 'timeout'; readonly step: Step; readonly round: number; readonly ms: number }
  | { readonly kind: 'decide'; readonly block_hash: string; readonly round: number };

/** One line of a record; `t` is the node's clock (ms since the epoch) when it happened. */
export type RecordEntry =
  | {
      readonly k: 'height';
      readonly format: typeof RECORD_FORMAT;
      readonly t: number;
      readonly height: number;
      readonly chain_id: string;
      /** The active set's consensus addresses, in proposer order. */
      readonly validators: readonly string[];
      /** This node's validator address when it is in the set; null for an observer. */
      readonly signer: string | null;
      /** Each step's timeout in ms for rounds 0 … RECORDED_TIMEOUT_ROUNDS - 1. */
      readonly timeouts: Readonly<Record<Step, readonly number[]>>;
    }
  | { readonly k: 'start'; readonly t: number }
  | { readonly k: 'proposal'; readonly t: number; readonly proposal: unknown }
  | { readonly k: 'vote'; readonly t: number; readonly vote: unknown }
  | { readonly k: 'timeout'; readonly t: number; readonly step: Step; readonly round: number }
  | { readonly k: 'rebroadcast'; readonly t: number }
  | { readonly k: 'resume'; readonly resume: unknown }
  | { readonly k: 'valid'; readonly block_hash: string; readonly ok: boolean }
  | { readonly k: 'built'; readonly round: number; readonly block: unknown }
  | {
      readonly k: 'signed';
      readonly round: number;
      readonly step: Step;
      readonly block_hash: string | null;
      /** The signature (130 hex), or null where the signer refused. */
      readonly signature: string | null;
    }
  | { readonly k: 'out'; readonly actions: readonly RecordedAction[] };

export type RecordInput = Extract<
  RecordEntry,
  { k: 'start' | 'proposal' | 'vote' | 'timeout' | 'rebroadcast' }
>;

const withoutSentAt = (bytes: Uint8Array): unknown => {
  const { sent_at: _, ...message } = decodeJson(bytes) as Record<string, unknown>;
  return message;
};

export const voteJson = (v: Vote): unknown => withoutSentAt(encodeVote(v, 0));
export const proposalJson = (p: Proposal): unknown => withoutSentAt(encodeProposal(p, 0));

const bytesOf = (j: unknown, sentAt = 0) =>
  new TextEncoder().encode(JSON.stringify({ ...(j as object), sent_at: sentAt }));

/** A recorded vote, proposal or block read back; a RecordError naming what is wrong. */
export function voteOf(j: unknown): Vote {
  const v = decodeVote(bytesOf(j));
  if (typeof v === 'string') throw new RecordError(`a recorded vote: ${v}`);
  return v;
}

export function proposalOf(j: unknown): Proposal {
  const p = decodeProposal(bytesOf(j));
  if (typeof p === 'string') throw new RecordError(`a recorded proposal: ${p}`);
  return p;
}

export function blockOf(j: unknown): Block {
  const b = blockFromJson(j);
  if (!b.ok) throw new RecordError(`a recorded block: ${b.reason}`);
  return b.block;
}

export class RecordError extends Error {
  override readonly name = 'RecordError';
}

export function timeoutsJson(t: Timeouts): Record<Step, number[]> {
  const rounds = [...Array(RECORDED_TIMEOUT_ROUNDS).keys()];
  return {
    propose: rounds.map((r) => t.propose(r)),
    prevote: rounds.map((r) => t.prevote(r)),
    precommit: rounds.map((r) => t.precommit(r)),
  };
}

/** Timeouts from a height's entry: the listed rounds', and after them the last two's step. */
export function timeoutsOf(j: Readonly<Record<Step, readonly number[]>>): Timeouts {
  const of = (xs: readonly number[]) => (r: number) => {
    if (r < xs.length) return xs[r]!;
    const step = xs.length > 1 ? xs.at(-1)! - xs.at(-2)! : 0;
    return xs.at(-1)! + step * (r - xs.length + 1);
  };
  return { propose: of(j.propose), prevote: of(j.prevote), precommit: of(j.precommit) };
}

export function resumeJson(r: Resume | null): unknown {
  if (r === null) return null;
  const locked = (l: LockedBlock) => ({
    block: blockToJson(l.block),
    round: l.round,
    prevotes: l.prevotes.map(voteJson),
  });
  const kept = (p: KeptProposal) => ({
    block: blockToJson(p.block),
    round: p.round,
    pol_round: p.polRound,
    signature: p.signature,
  });
  return {
    round: r.round,
    last: { step: r.last.step, block_hash: r.last.blockHash, signature: r.last.signature },
    lock:
      r.lock === null
        ? null
        : {
            round: r.lock.round,
            block_hash: r.lock.blockHash,
            kept: r.lock.kept === null ? null : locked(r.lock.kept),
          },
    proposal: r.proposal === null ? null : kept(r.proposal),
  };
}

export function resumeOf(j: unknown): Resume | null {
  if (j === null) return null;
  // biome-ignore lint/suspicious/noExplicitAny: read as resumeJson wrote it; a bad one fails in the reads below.
  const r = j as any;
  return {
    round: r.round,
    last: { step: r.last.step, blockHash: r.last.block_hash, signature: r.last.signature },
    lock:
      r.lock === null
        ? null
        : {
            round: r.lock.round,
            blockHash: r.lock.block_hash,
            kept:
              r.lock.kept === null
                ? null
                : {
                    block: blockOf(r.lock.kept.block),
                    round: r.lock.kept.round,
                    prevotes: r.lock.kept.prevotes.map(voteOf),
                  },
          },
    proposal:
      r.proposal === null
        ? null
        : {
            block: blockOf(r.proposal.block),
            round: r.proposal.round,
            polRound: r.proposal.pol_round,
            signature: r.proposal.signature,
          },
  };
}

export function recordedActions(actions: readonly ConsensusAction[]): RecordedAction[] {
  return actions.map((a): RecordedAction => {
    if (a.kind === 'broadcast-proposal')
      return {
        kind: 'proposal',
        round: a.proposal.round,
        pol_round: a.proposal.polRound,
        block_hash: a.proposal.blockHash,
      };
    if (a.kind === 'broadcast-vote')
      return { kind: 'vote', vote: a.vote.kind, round: a.vote.round, block_hash: a.vote.blockHash };
    if (a.kind === 'schedule-timeout') return { kind: 'timeout', step: a.step, round: a.round, ms: a.ms };
    return { kind: 'decide', block_hash: a.blockHash, round: a.commit.round };
  });
}

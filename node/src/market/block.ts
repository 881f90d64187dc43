/**
 * One followed block applied to the live tasks (docs/MARKET.md, "Transitions" and "Money"), as a
 * set of changes the service writes in one batch: payments into the escrow, payouts out of it
 * (known by what the market signed, whatever their recipient; a nonce another sender took
 * re-signs its payout), SUBMIT_RESULTs that complete tasks, then deadlines and lapsed claims,
 * then the plans of settled tasks in the order they settled. Every lookup goes through an
 * index (live.ts), so a block costs what it settles.
 */
import type { Tx } from '../chain/index.js';
import { awaitsPlan, type LiveTasks, owedFor } from './live.js';
import { type EscrowSigner, resign } from './payouts.js';
import { settle } from './settle.js';
import { claimLapsed, lapse } from './squatting.js';
import type { Books } from './store.js';
import { type DepositRecord, isLive, type PayoutRecord, type TaskRecord } from './types.js';

/** A transaction of a followed block, with its outcome where the market needed it. */
export interface FollowedTx {
  readonly tx: Tx;
  readonly hash: string;
  /** 'confirmed' or 'failed' (in the block); null when the market did not ask (not its business). */
  readonly outcome: 'confirmed' | 'failed' | null;
}

export interface FollowedBlock {
  readonly height: number;
  readonly timestamp: number;
  readonly txs: readonly FollowedTx[];
  /** The commit's signers and their reward addresses, fetched when a SUBMIT_RESULT names a known task. */
  readonly signers: readonly { readonly validator: string; readonly reward_address: string }[] | null;
}

export interface BlockContext {
  readonly live: LiveTasks;
  /** What the payments no task has named yet add to what the escrow owes. */
  readonly openOwed: bigint;
  readonly books: Books;
  readonly escrow: EscrowSigner;
  /** The task a payment makes pending (its created_at and deadline set). */
  readonly pendingFrom: (t: TaskRecord, d: DepositRecord) => TaskRecord;
  readonly warn: (msg: string, fields: Record<string, unknown>) => void;
}

export interface BlockChanges {
  readonly tasks: TaskRecord[];
  /** Funding tasks whose payment failed: no task. */
  readonly removed: string[];
  readonly deposits: DepositRecord[];
  readonly books: Books;
  /** Payouts this block confirmed. */
  readonly paid: PayoutRecord[];
  /** Puts back what was taken from the heaps, if the changes are not written. */
  readonly restore: () => void;
}

/**
 * Plans signed in one block at the most: signing is most of a settlement's cost (about half a
 * millisecond a payout), and the market answers nothing while a block is applied. Ten thousand
 * tasks failing at one deadline are planned over 40 blocks instead of freezing it for seconds;
 * the payer sends 32 at a time anyway.
 */
export const MAX_PLANS_PER_BLOCK = 256;

type Key = { readonly hash: string } | { readonly nonce: number };
const matches = (p: PayoutRecord, k: Key) =>
  p.status === 'planned' && ('hash' in k ? p.tx_hash === k.hash : p.nonce === k.nonce);

export function applyFollowedBlock(ctx: BlockContext, b: FollowedBlock): BlockChanges {
  const { live, escrow, warn } = ctx;
  const changed = new Map<string, TaskRecord>();
  const deposits: DepositRecord[] = [];
  const removed: string[] = [];
  const paid: PayoutRecord[] = [];
  // What the escrow owes, as this block changes it (live.owed and openOwed are before it).
  let owedDelta = 0n;
  const get = (id: string) => changed.get(id) ?? live.get(id);
  // Payouts signed again in this block, not in live's indexes yet.
  const resigned = new Map<string, string>();
  const set = (t: TaskRecord) => {
    owedDelta += owedFor(t, escrow.fee) - owedFor(get(t.task_id), escrow.fee);
    changed.set(t.task_id, t);
    for (const p of t.payouts)
      if (p.status === 'planned') {
        resigned.set(p.tx_hash, t.task_id);
        resigned.set(`#${p.nonce}`, t.task_id);
      }
  };
  const ownerOf = (k: Key): TaskRecord | undefined => {
    const id = resigned.get('hash' in k ? k.hash : `#${k.nonce}`) ?? live.payoutOwner(k);
    const t = id === undefined ? undefined : get(id);
    return t?.payouts.some((p) => matches(p, k)) ? t : undefined;
  };
  let balance = BigInt(ctx.books.balance);
  let nextNonce = ctx.books.next_nonce;

  for (const { tx, hash, outcome } of b.txs) {
    if (outcome === null) continue;
    if (tx.from === escrow.address) {
      // Its own payouts first, known by what the market signed, whatever their recipient: a
      // transfer from the escrow to the escrow is a payout too, never money in.
      if (outcome === 'confirmed') balance -= tx.fee + (tx.to === escrow.address ? 0n : tx.amount);
      const owner = ownerOf({ hash });
      if (owner !== undefined) {
        const payouts = owner.payouts.map((p) => {
          if (p.tx_hash !== hash) return p;
          if (outcome === 'failed') {
            warn('a payout failed in a block: signed again with the same nonce', {
              task_id: owner.task_id,
              tx_hash: hash,
            });
            return resign(escrow, owner.task_id, p);
          }
          const confirmed = { ...p, status: 'confirmed' as const, height: b.height };
          paid.push(confirmed);
          return confirmed;
        });
        set({ ...owner, payouts });
        continue;
      }
      // Not a payout: only one that executed took a nonce (a failed one moves none).
      if (outcome !== 'confirmed') continue;
      const victim = ownerOf({ nonce: tx.nonce });
      warn('a transfer from the escrow that the market did not plan', {
        tx_hash: hash,
        nonce: tx.nonce,
        ...(victim === undefined ? {} : { took_the_nonce_of_task: victim.task_id }),
      });
      if (victim === undefined) {
        nextNonce = Math.max(nextNonce, tx.nonce + 1);
        continue;
      }
      // Its nonce belonged to a planned payout, which can now never execute: that payout is
      // signed again with a fresh nonce (it was not paid, and its old signature never can be).
      const fresh = nextNonce++;
      const payouts = victim.payouts.map((p) => {
        if (!matches(p, { nonce: tx.nonce })) return p;
        const again = resign(escrow, victim.task_id, p, fresh);
        warn('a payout lost its nonce to that transfer: signed again with a fresh nonce', {
          task_id: victim.task_id,
          share: p.share,
          old_tx_hash: p.tx_hash,
          tx_hash: again.tx_hash,
          nonce: fresh,
        });
        return again;
      });
      set({ ...victim, payouts });
      continue;
    }
    if (tx.type === 'TRANSFER' && tx.to === escrow.address) {
      const funding = live.fundingOf(hash);
      if (outcome === 'failed') {
        // The payment failed: no task (its POST answers so; a retry finds no task and no money).
        if (funding !== undefined) removed.push(funding.task_id);
        continue;
      }
      balance += tx.amount;
      const memo = tx.payload.memo ?? '';
      // A payment without a market memo tops up the float.
      if (!memo.startsWith('market:')) continue;
      const d: DepositRecord = {
        tx_hash: hash,
        from_address: tx.from,
        amount: tx.amount.toString(),
        memo,
        height: b.height,
        timestamp: b.timestamp,
        task_id: funding?.task_id ?? null,
      };
      deposits.push(d);
      if (funding !== undefined) set(ctx.pendingFrom(funding, d));
      else owedDelta += tx.amount;
      continue;
    }
    if (tx.type === 'SUBMIT_RESULT' && outcome === 'confirmed') {
      const t = get(tx.payload.taskId!);
      if (
        t === undefined ||
        t.status !== 'in_progress' ||
        t.worker?.address !== tx.from ||
        b.timestamp > t.deadline! ||
        b.timestamp > t.worker.expires_at
      )
        continue;
      if (b.signers === null)
        throw new Error(`block ${b.height} completes a task but came without its signers`);
      set({
        ...t,
        status: 'completed',
        result: {
          result_hash: tx.payload.resultHash!,
          worker_address: tx.from,
          completed_at: b.timestamp,
          height: b.height,
          tx_hash: hash,
          validators: b.signers,
        },
      });
    }
  }

  // Deadlines: a task still pending or in progress after a block past its deadline fails; a
  // claim with no result by its expiry lapses (the task pending again). The heaps give the
  // tasks due; this block's own changes are looked at too (a payment whose deadline is past).
  const due = live.takeDue(b.timestamp);
  for (const id of new Set([...due.ids, ...changed.keys()])) {
    const now = get(id);
    if (now === undefined || removed.includes(id)) continue;
    if (isLive(now) && now.deadline! < b.timestamp)
      set({
        ...now,
        status: 'failed',
        failure: { reason: 'deadline', failed_at: b.timestamp, height: b.height },
      });
    else if (claimLapsed(now, b.timestamp)) {
      warn('a claim lapsed without a result: the task is pending again', {
        task_id: id,
        worker: now.worker!.address,
      });
      set(lapse(now));
    }
  }

  // Plans, in the order the tasks settled, each from the books as the ones before left them;
  // the first the float cannot pay the fees of waits, and those after it with it; at most
  // MAX_PLANS_PER_BLOCK, the rest at the next blocks.
  let books: Books = {
    ...ctx.books,
    cursor: b.height,
    chain_time: b.timestamp,
    balance: balance.toString(),
    next_nonce: nextNonce,
  };
  const settled = [...changed.values()].filter(awaitsPlan).map((t) => t.task_id);
  let plans = 0;
  for (const id of new Set([...live.awaiting, ...settled])) {
    if (plans >= MAX_PLANS_PER_BLOCK) break;
    const t = get(id)!;
    if (!awaitsPlan(t)) continue;
    const s = settle(t, escrow, books, balance - (live.owed + ctx.openOwed + owedDelta));
    if (!s.planned) {
      warn('the float cannot pay the fees of a settlement: it waits', {
        task_id: id,
        float: (balance - (live.owed + ctx.openOwed + owedDelta)).toString(),
        fees: s.fees.toString(),
      });
      break;
    }
    books = s.books;
    set(s.task);
    plans++;
  }
  return { tasks: [...changed.values()], removed, deposits, books, paid, restore: due.restore };
}

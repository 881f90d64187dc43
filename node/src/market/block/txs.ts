/**
 * A followed block's transactions, each kind by its own rule (docs/MARKET.md, "Money"): what the
 * escrow sent (its payouts, known by what the market signed whatever their recipient; a failed
 * one signed again; a transfer it did not plan, which may have taken a planned payout's nonce),
 * payments into the escrow (a task made pending, or the float topped up), and SUBMIT_RESULTs that
 * complete a task in progress.
 */
import { resign } from '../payouts.js';
import type { DepositRecord, TaskRecord } from '../types.js';
import { BlockDraft } from './draft.js';
import type { FollowedBlock, FollowedTx } from './types.js';

export type Warn = (msg: string, fields: Record<string, unknown>) => void;

/** A transaction from the escrow: a payout of the market's, or a transfer it did not plan. */
export function fromEscrow(
  d: BlockDraft,
  { tx, hash, outcome }: FollowedTx,
  height: number,
  warn: Warn,
): void {
  const { escrow } = d;
  // A transfer from the escrow to the escrow is a payout too, never money in.
  if (outcome === 'confirmed') d.balance -= tx.fee + (tx.to === escrow.address ? 0n : tx.amount);
  const owner = d.ownerOf({ hash });
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
      const confirmed = { ...p, status: 'confirmed' as const, height };
      d.paid.push(confirmed);
      return confirmed;
    });
    d.set({ ...owner, payouts });
    return;
  }
  // Not a payout: only one that executed took a nonce (a failed one moves none).
  if (outcome !== 'confirmed') return;
  const victim = d.ownerOf({ nonce: tx.nonce });
  warn('a transfer from the escrow that the market did not plan', {
    tx_hash: hash,
    nonce: tx.nonce,
    ...(victim === undefined ? {} : { took_the_nonce_of_task: victim.task_id }),
  });
  if (victim === undefined) {
    d.nextNonce = Math.max(d.nextNonce, tx.nonce + 1);
    return;
  }
  // Its nonce belonged to a planned payout, which can now never execute: that payout is
  // signed again with a fresh nonce (it was not paid, and its old signature never can be).
  const fresh = d.nextNonce++;
  const payouts = victim.payouts.map((p) => {
    if (!BlockDraft.matches(p, { nonce: tx.nonce })) return p;
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
  d.set({ ...victim, payouts });
}

/** A payment into the escrow: the task it funds made pending, or the float topped up. */
export function intoEscrow(
  d: BlockDraft,
  { tx, hash, outcome }: FollowedTx,
  b: FollowedBlock,
  pendingFrom: (t: TaskRecord, d: DepositRecord) => TaskRecord,
): void {
  const funding = d.live.fundingOf(hash);
  if (outcome === 'failed') {
    // The payment failed: no task (its POST answers so; a retry finds no task and no money).
    if (funding !== undefined) d.removed.push(funding.task_id);
    return;
  }
  d.balance += tx.amount;
  const memo = tx.payload.memo ?? '';
  // A payment without a market memo tops up the float.
  if (!memo.startsWith('market:')) return;
  const deposit: DepositRecord = {
    tx_hash: hash,
    from_address: tx.from,
    amount: tx.amount.toString(),
    memo,
    height: b.height,
    timestamp: b.timestamp,
    task_id: funding?.task_id ?? null,
  };
  d.deposits.push(deposit);
  if (funding !== undefined) d.set(pendingFrom(funding, deposit));
  else d.owedDelta += tx.amount;
}

/** A confirmed SUBMIT_RESULT: the task it names completed, when its worker holds the claim in time. */
export function submitResult(d: BlockDraft, { tx, hash }: FollowedTx, b: FollowedBlock): void {
  const t = d.get(tx.payload.taskId!);
  if (
    t === undefined ||
    t.status !== 'in_progress' ||
    t.worker?.address !== tx.from ||
    b.timestamp > t.deadline! ||
    b.timestamp > t.worker.expires_at
  )
    return;
  if (b.signers === null) throw new Error(`block ${b.height} completes a task but came without its signers`);
  d.set({
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

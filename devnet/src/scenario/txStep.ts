/**
 * A tx step: a transaction signed with a devnet key, and what the file expects of it: confirmed
 * (the default), failed in a block, or rejected by the node at admission (POST /tx/send answered
 * `{status: "rejected", error}`: no receipt ever comes), with the reason's text or pattern.
 */
import type { TxOutcome } from '../operations/tx.js';
import type { TestnetBase } from '../testkit/testnet/base.js';
import type { Step } from './scenario.js';

/** What became of the transaction, and the reason the node or the block gave. */
function fate(r: TxOutcome): { status: string; reason: string | null } {
  if (r.submit.status === 'rejected') return { status: 'rejected', reason: r.submit.error ?? null };
  if (r.receipt === null)
    return { status: `not decided (submitted: ${r.submit.status})`, reason: r.submit.error ?? null };
  return { status: r.receipt.status, reason: r.receipt.error ?? null };
}

/** On a devnet (a Testnet) or on the simulation (its cluster's tx and context: simSteps.ts). */
export async function txStep(
  net: Pick<TestnetBase, 'tx' | 'net'>,
  tx: NonNullable<Step['tx']>,
): Promise<TxOutcome> {
  const { type, status, error, ...rest } = tx;
  const want = status ?? 'confirmed';
  const r = await net.tx(type, { ...rest, wait: true });
  const got = fate(r);
  const reasonFits =
    error === undefined ||
    (got.reason !== null &&
      (typeof error === 'string' ? got.reason.includes(error) : new RegExp(error.matches).test(got.reason)));
  if (got.status !== want || !reasonFits) {
    const reason =
      error === undefined
        ? ''
        : typeof error === 'string'
          ? ` with a reason containing "${error}"`
          : ` with a reason matching /${error.matches}/`;
    throw await net.net.failureNow(
      r.node,
      `the ${type} ${r.tx_hash} ${want}${reason}`,
      `${got.status}${got.reason === null ? '' : `: ${got.reason}`}`,
    );
  }
  return r;
}

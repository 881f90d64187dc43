/**
 * Money in (docs/MARKET.md, "Terms and funding"): a task exists once its reward is final in the
 * escrow. The creator's signed TRANSFER is checked against the terms first (recipient, amount,
 * memo, signature: a refusal costs nothing), then sent to the node and followed until the block
 * that holds it is applied by the market; only then is the task pending. The wait is bounded:
 * when the bound runs out the POST is answered 503 and the client sends the same request again,
 * which finds the same task (its id comes from the payment) and never pays twice.
 */

import { withDeadline } from '@chain-devnet/kit/values';
import { pause } from '@chain-devnet/kit/wait';
import { checkTxSignature, type Tx, txFromJson } from '../chain/index.js';
import { type RpcClient, RpcError } from '../client/rpcClient.js';
import type { MarketService } from './service.js';
import { fundingMemo, type Terms } from './terms.js';
import type { TaskRecord } from './types.js';

export type FundingCheck =
  | { readonly ok: true; readonly tx: Tx }
  | { readonly ok: false; readonly detail: string };

/** The funding transaction against the terms (pure): every refusal names `funding.<field>`. */
export function checkFunding(json: unknown, terms: Terms, escrow: string, chainId: string): FundingCheck {
  const parsed = txFromJson(json);
  if (!parsed.ok) return { ok: false, detail: `funding is not a well-formed transaction: ${parsed.reason}` };
  const tx = parsed.tx;
  const memo = fundingMemo(terms);
  if (parsed.chainId !== undefined && parsed.chainId !== chainId)
    return { ok: false, detail: `funding.chain_id must be ${chainId}` };
  if (tx.type !== 'TRANSFER') return { ok: false, detail: 'funding.tx_type must be TRANSFER' };
  if (tx.to !== escrow)
    return { ok: false, detail: `funding.to_address must be the market's escrow ${escrow}` };
  if (tx.amount !== terms.reward) return { ok: false, detail: 'funding.amount must equal reward' };
  if (tx.payload.memo !== memo)
    return {
      ok: false,
      detail: `funding.payload.memo must be ${memo} (the hash of these terms: docs/MARKET.md)`,
    };
  if (checkTxSignature(tx, chainId) !== null)
    return { ok: false, detail: "funding.signature is not from_address's signature of this transaction" };
  return { ok: true, tx };
}

export type FundingOutcome =
  | { readonly kind: 'task'; readonly task: TaskRecord; readonly created: boolean }
  | { readonly kind: 'refused'; readonly detail: string }
  | { readonly kind: 'not_final' }
  | { readonly kind: 'unreachable'; readonly detail: string };

const isNetworkError = (e: unknown) => !(e instanceof RpcError) || e.status >= 500;

/**
 * Sends the funding of a task still `funding` and waits (at most `waitMs`) until the market has
 * applied the block that holds it. The bound holds whatever the node does: a node too loaded to
 * answer within the RPC client's own timeout cannot hold the POST past it (the work left then
 * runs on to its next look at the bound, its outcome dropped; a retried POST finds the same task).
 */
export async function settleFunding(
  service: MarketService,
  rpc: RpcClient,
  task: TaskRecord,
  created: boolean,
  waitMs: number,
  pollMs = 100,
): Promise<FundingOutcome> {
  let late: AbortSignal | null = null;
  try {
    return await withDeadline(waitMs, 'the funding wait ran out', (signal) => {
      late = signal;
      return follow(service, rpc, task, created, signal, pollMs);
    });
  } catch (e) {
    if ((late as AbortSignal | null)?.aborted) return { kind: 'not_final' };
    throw e;
  }
}

async function follow(
  service: MarketService,
  rpc: RpcClient,
  task: TaskRecord,
  created: boolean,
  late: AbortSignal,
  pollMs: number,
): Promise<FundingOutcome> {
  const hash = task.funding.tx_hash;
  let sent = false;
  try {
    for (;;) {
      const now = await service.task(task.task_id);
      if (now === undefined)
        return { kind: 'refused', detail: `funding failed on chain: ${await failure(rpc, hash)}` };
      if (now.status !== 'funding') return { kind: 'task', task: now, created };
      const receipt = await rpc.receipt(hash).catch((e: unknown) => {
        if (e instanceof RpcError && e.status === 404) return null;
        throw e;
      });
      if (receipt?.status === 'failed' && receipt.block_height !== null) {
        await service.abandonFunding(task.task_id);
        return { kind: 'refused', detail: `funding failed on chain: ${receipt.error ?? 'no reason given'}` };
      }
      // Unknown to the node, or expired from its mempool: (again) sent, as it is.
      if ((receipt === null || receipt.status === 'failed') && !sent) {
        const answer = await rpc.sendTx(task.funding.tx);
        sent = true;
        if (answer.status === 'rejected') {
          // A copy sent a moment earlier (a retried POST) is fine; any other refusal is final.
          const again = await rpc.receipt(hash).catch(() => null);
          if (again === null || again.status === 'failed') {
            await service.abandonFunding(task.task_id);
            return {
              kind: 'refused',
              detail: `funding was refused by the node: ${answer.error ?? 'no reason given'}`,
            };
          }
        }
      }
      if (late.aborted) return { kind: 'not_final' };
      await pause(pollMs);
    }
  } catch (e) {
    if (isNetworkError(e)) return { kind: 'unreachable', detail: (e as Error).message };
    throw e;
  }
}

async function failure(rpc: RpcClient, hash: string): Promise<string> {
  const r = await rpc.receipt(hash).catch(() => null);
  return r?.error ?? 'no receipt';
}

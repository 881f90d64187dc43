/**
 * The sample worker (`chain-market worker`), for tests and demos: it polls the market for
 * pending tasks, claims one with its key, computes a result deterministically, commits it on
 * chain with SUBMIT_RESULT through a node's RPC, waits for the receipt, and goes on. Its result
 * is a stand-in for real work, documented so anyone can check it:
 *
 *   result_hash = H(str("chain-market-sample-result/v1") str(task_id) terms_bytes)
 *
 * with terms_bytes the task's terms (terms.ts; its deadline the one the task shows). A real
 * worker would run the model, the training, the render, the generator.
 *
 * A task it claimed is never left in progress until the claim lapses (after which it may never
 * claim it again): it holds a task from before its claim is sent to the receipt of its
 * SUBMIT_RESULT in a block, and takes up at each round the tasks the market says it holds that
 * it does not remember (a claim recorded whose answer never came back, a worker started again).
 */

import type { Logger } from '@chain-devnet/kit/log';
import { pause } from '@chain-devnet/kit/wait';
import { Writer } from '../chain/index.js';
import { type RpcClient, RpcError } from '../client/rpcClient.js';
import { buildTx } from '../client/txBuilder.js';
import { accountAddressOf } from '../crypto/address.js';
import { sha256 } from '../crypto/hash.js';
import { bytesToHex } from '../crypto/hex.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import type { TaskAnswer } from './answers.js';
import type { MarketClient } from './client.js';
import { termsBytes } from './terms.js';

export const SAMPLE_RESULT_DOMAIN = 'chain-market-sample-result/v1';

export function sampleResultHash(
  t: Pick<TaskAnswer, 'task_id' | 'challenge_type' | 'payload' | 'reward' | 'deadline'>,
): string {
  const terms = termsBytes({
    challengeType: t.challenge_type,
    payload: t.payload,
    reward: BigInt(t.reward),
    deadline: t.deadline,
  });
  return bytesToHex(sha256(new Writer().str(SAMPLE_RESULT_DOMAIN).str(t.task_id).bytes(terms).finish()));
}

export interface WorkerOptions {
  readonly market: MarketClient;
  readonly rpc: RpcClient;
  readonly key: Uint8Array;
  readonly pollMs: number;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /**
   * How long one round waits for a SUBMIT_RESULT's receipt (default 60 s); one not in a block by
   * then is waited for again at the next round.
   */
  readonly receiptWaitMs?: number;
}

export interface RunWorkerOptions extends WorkerOptions {
  /**
   * Chain seconds a task must have left before its deadline for the worker to claim it: a worker
   * that cannot finish in time leaves the task to fail and its creator to be refunded, rather
   * than hold it.
   */
  readonly minTimeLeftSeconds: number;
}

/** Whether a task leaves the worker enough chain time, at `chainTime`, to claim it. */
export function worthClaiming(deadline: number, chainTime: number, minTimeLeftSeconds: number): boolean {
  return deadline - chainTime >= minTimeLeftSeconds;
}

/**
 * The tasks a worker has claimed (or is claiming) and not yet seen through, each with the hash of
 * the SUBMIT_RESULT it sent for it (null before that): a round cut short after the claim was sent
 * (a node or the market out of reach, the claim's answer lost, a timeout, a receipt not in a block
 * yet) is finished at the next round, from where it stopped, rather than left in progress until
 * the claim lapses (and the task then lost to this worker for good).
 */
export type HeldTasks = Map<string, string | null>;

/** The SUBMIT_RESULT sent earlier for a task, if the node still has it (pending or in a block). */
async function stillSent(rpc: RpcClient, hash: string | null): Promise<string | null> {
  if (hash === null) return null;
  const r = await rpc.receipt(hash).catch((e: unknown) => {
    if (e instanceof RpcError && e.status === 404) return null;
    throw e;
  });
  // Failed out of a block: expired from the mempool, never executed; sent again.
  return r === null || (r.status === 'failed' && r.block_height === null) ? null : hash;
}

/**
 * Works one task: claim (again, for a task it holds: the same claim), compute, SUBMIT_RESULT
 * (once: one sent earlier is waited for), receipt. False when another worker got it first or it
 * is no longer in progress.
 */
export async function workTask(
  o: WorkerOptions,
  chainId: string,
  id: string,
  held: HeldTasks = new Map(),
): Promise<boolean> {
  // Held before the claim is sent: the market may record a claim whose answer never reaches the
  // worker (its deadline ran out, the connection was cut), and the task, in progress, is then in
  // no list of pending tasks again. Claimed again at the next round, the same claim is answered
  // 200; a refusal (409, 404: another worker's, settled, gone) lets it go.
  if (!held.has(id)) held.set(id, null);
  try {
    await o.market.claim(id, chainId, o.key);
  } catch (e) {
    if (e instanceof RpcError && (e.status === 409 || e.status === 404)) {
      held.delete(id);
      return false;
    }
    throw e;
  }
  const task = await o.market.task(id);
  const resultHash = sampleResultHash(task);
  let hash = await stillSent(o.rpc, held.get(id) ?? null);
  if (hash === null) {
    const tx = await buildTx(o.rpc, {
      type: 'SUBMIT_RESULT',
      privateKey: o.key,
      payload: { taskId: id, resultHash },
      chainId,
      timestamp: Math.floor(Date.now() / 1000),
    });
    const sent = await o.rpc.sendTx(tx);
    if (sent.status === 'rejected') throw new Error(`SUBMIT_RESULT for ${id} refused: ${sent.error}`);
    hash = sent.tx_hash;
    held.set(id, hash);
  }
  const receipt = await o.rpc.waitForReceipt(hash, o.receiptWaitMs ?? 60_000);
  if (receipt.status === 'pending' || receipt.block_height === null) {
    // Not in a block yet (waited for again at the next round), or out of the node's mempool
    // without being executed (expired, its nonce taken: sent again at the next round).
    if (receipt.status !== 'pending') held.set(id, null);
    o.logger.warn('the result is not in a block yet; the task is held', {
      task_id: id,
      tx_hash: hash,
      receipt: receipt.status,
    });
    return true;
  }
  held.delete(id);
  o.logger.info('result submitted', {
    task_id: id,
    result_hash: resultHash,
    tx_hash: hash,
    receipt: receipt.status,
  });
  return true;
}

/** The most tasks in progress one round reads to find the worker's own. */
const IN_PROGRESS_READ = 1_000;

/**
 * Takes into `held` the tasks the market shows in progress with this worker's claim that `held`
 * does not know: a claim recorded whose answer never came back, or a worker started again with
 * an empty memory. `leftAlone` holds the tasks in progress not to take up (kept to those the
 * market still shows in progress): another worker's, each read once, and this worker's own whose
 * SUBMIT_RESULT is in a block the market, which follows the chain a poll behind, has not read yet
 * (taken up, its result would be sent again).
 */
export async function adoptClaims(
  o: Pick<WorkerOptions, 'market' | 'key' | 'logger'>,
  held: HeldTasks,
  leftAlone: Set<string>,
): Promise<void> {
  const me = accountAddressOf(publicKeyHexOf(o.key));
  const seen = new Set<string>();
  for (let offset = 0; offset < IN_PROGRESS_READ; offset += 100) {
    const page = await o.market.tasks({ status: 'in_progress', limit: 100, offset });
    for (const t of page.tasks) {
      seen.add(t.task_id);
      if (held.has(t.task_id) || leftAlone.has(t.task_id)) continue;
      if ((await o.market.task(t.task_id)).worker_address !== me) {
        leftAlone.add(t.task_id);
        continue;
      }
      held.set(t.task_id, null);
      o.logger.warn('the market shows a claim of this worker it did not remember: taken up', {
        task_id: t.task_id,
      });
    }
    if (offset + page.tasks.length >= page.total || page.tasks.length === 0) break;
  }
  for (const id of leftAlone) if (!seen.has(id)) leftAlone.delete(id);
}

export async function runWorker(o: RunWorkerOptions, held: HeldTasks = new Map()): Promise<void> {
  const leftAlone = new Set<string>();
  const work = async (chainId: string, id: string): Promise<void> => {
    const ours = await workTask(o, chainId, id, held);
    // Its result in a block: done, whatever the market shows until it reads that block.
    if (ours && !held.has(id)) leftAlone.add(id);
  };
  while (!o.signal.aborted) {
    try {
      const info = await o.market.info();
      await adoptClaims(o, held, leftAlone);
      // Its own claims first: work cut short in an earlier round is finished before new work.
      for (const id of [...held.keys()]) {
        if (o.signal.aborted) break;
        await work(info.chain_id, id);
      }
      const { tasks } = await o.market.tasks({ status: 'pending', limit: 10 });
      for (const t of tasks) {
        if (o.signal.aborted) break;
        const { deadline } = await o.market.task(t.task_id);
        if (!worthClaiming(deadline, info.chain_time, o.minTimeLeftSeconds)) continue;
        await work(info.chain_id, t.task_id);
      }
    } catch (e) {
      o.logger.warn('the worker could not work a task; trying again', { error: (e as Error).message });
    }
    await pause(o.pollMs);
  }
}

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
 */

import { Writer } from '../chain/codec/encoding.js';
import { type RpcClient, RpcError } from '../client/rpcClient.js';
import { buildTx } from '../client/txBuilder.js';
import { sha256 } from '../crypto/hash.js';
import { bytesToHex } from '../crypto/hex.js';
import { pause } from '../harness/wait.js';
import type { Logger } from '../util/logger.js';
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

/** Works one task: claim, compute, SUBMIT_RESULT, receipt. False when another worker got it first. */
export async function workTask(o: WorkerOptions, chainId: string, id: string): Promise<boolean> {
  try {
    await o.market.claim(id, chainId, o.key);
  } catch (e) {
    if (e instanceof RpcError && (e.status === 409 || e.status === 404)) return false;
    throw e;
  }
  const task = await o.market.task(id);
  const resultHash = sampleResultHash(task);
  const tx = await buildTx(o.rpc, {
    type: 'SUBMIT_RESULT',
    privateKey: o.key,
    payload: { taskId: id, resultHash },
    chainId,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const sent = await o.rpc.sendTx(tx);
  if (sent.status === 'rejected') throw new Error(`SUBMIT_RESULT for ${id} refused: ${sent.error}`);
  const receipt = await o.rpc.waitForReceipt(sent.tx_hash, 60_000);
  o.logger.info('result submitted', {
    task_id: id,
    result_hash: resultHash,
    tx_hash: sent.tx_hash,
    receipt: receipt.status,
  });
  return true;
}

export async function runWorker(o: RunWorkerOptions): Promise<void> {
  while (!o.signal.aborted) {
    try {
      const info = await o.market.info();
      const { tasks } = await o.market.tasks({ status: 'pending', limit: 10 });
      for (const t of tasks) {
        if (o.signal.aborted) break;
        const { deadline } = await o.market.task(t.task_id);
        if (!worthClaiming(deadline, info.chain_time, o.minTimeLeftSeconds)) continue;
        await workTask(o, info.chain_id, t.task_id);
      }
    } catch (e) {
      o.logger.warn('the worker could not work a task; trying again', { error: (e as Error).message });
    }
    await pause(o.pollMs);
  }
}

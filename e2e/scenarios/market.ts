/**
 * 12 The task market (docs/MARKET.md), with the devnet's market and sample worker: a task funded
 * by a fresh creator is claimed by the worker, its SUBMIT_RESULT is in a block whose compute_root
 * is the root of that block's results, and the task completes; the split is paid exactly once
 * (60% burned, 25% to the worker, 10% to the commit's signers, the rest to the treasury). A claim
 * signed by another key is refused. A task whose deadline leaves the worker too little time is
 * not claimed, fails at its deadline, and its creator is refunded. Then, on every node: the
 * creator's, the worker's and the escrow's balances, total_burned and the treasury, to the wei.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { COIN, type DevAccount, feeOf, type Testnet, Wallet } from '@chain-devnet/devnet/testkit';
import { waitFor } from '@chain-devnet/kit/wait';
import { computeRoot } from '@chain-devnet/node/chain';
import type { RpcClient } from '@chain-devnet/node/client';
import {
  fundedRequest,
  MarketClient,
  type MarketInfoAnswer,
  type PayoutAnswer,
  type Share,
  type SharePart,
  sampleResultHash,
  signStatement,
  splitReward,
  type TaskAnswer,
  type TaskOrder,
} from '@chain-devnet/node/market';
import type { Scenario } from './scenario.js';

/** What the scenario checks on every node, at one height. */
interface Books {
  readonly creator: bigint;
  readonly worker: bigint;
  readonly escrow: bigint;
  readonly burned: bigint;
  readonly treasury: bigint;
}

/** The market as the scenario uses it: where it is, what it says of itself, its worker, a fresh creator. */
interface MarketUse {
  readonly url: string;
  readonly client: MarketClient;
  readonly info: MarketInfoAnswer;
  readonly worker: DevAccount;
  readonly creator: Wallet;
  /** The node whose RPC the creator's requests are signed through. */
  readonly rpc: RpcClient;
}

/** What the split gives to one kind of share, all its parts together. */
const shareOf = (parts: readonly SharePart[], s: Share): bigint =>
  parts.filter((p) => p.share === s).reduce((a, p) => a + p.amount, 0n);

/** How far past the chain time the late task's deadline is: under the worker's --min-time-left (30 s). */
const LATE_DEADLINE_S = 25;

/** The late task's reward, every wei digit significant as well. */
const LATE_REWARD = 2n * COIN + 1n;

export const marketScenario: Scenario = {
  id: 12,
  title:
    'task market: claimed, SUBMIT_RESULT in compute_root, completed, split to the wei; a late task refunded',
  async run(net) {
    const names = net.names();
    const m = await marketAndCreator(net);
    const before = (await booksOf(net, m, names[1 % names.length]!)).value;
    // A completed task: every wei digit significant, so that each floor and the remainder show.
    const reward = 7n * COIN + 13n;
    const order = {
      challenge_type: 'inference' as const,
      payload: { model_id: 'llama-3-8b', prompt: 'e2e', max_tokens: 8 },
      reward,
    };
    const done = await taskCompleted(net, m, order);
    await resultInComputeRoot(net, done);
    const parts = await payoutsAreTheSplit(net, m, done, reward);
    const lateId = await forgedClaimRefused(m, order);
    const failed = await lateTaskFailedAndRefunded(net, m, lateId);
    await booksToTheWei(net, m, before, reward, parts, [...done.payouts, ...failed.payouts]);
  },
};

/** The devnet's market, its worker's account, and a creator funded with 50 coin. */
async function marketAndCreator(net: Testnet): Promise<MarketUse> {
  const { txs } = net;
  const url = net.market;
  assert.ok(url !== null, 'the suite devnet runs the task market (manifest market: true)');
  const names = net.names();
  const rpc = net.node(names[1 % names.length]!).rpc;
  await net.synced();
  const client = new MarketClient(url, 30_000);
  const info = await client.info();
  const worker = net.accounts.find((a) => a.name === 'market-worker');
  assert.ok(worker !== undefined, 'the devnet funded the market-worker account');
  const creator = Wallet.random('creator');
  await txs.fund(txs.faucet(), [creator], 50n * COIN, names[0]!);
  return { url, client, info, worker, creator, rpc };
}

/** The creator's, the worker's and the escrow's balances, total_burned and the treasury, at one height of `n`. */
function booksOf(net: Testnet, m: MarketUse, n: string): Promise<{ height: number; value: Books }> {
  return net.chain.consistent(n, async () => {
    const r = net.node(n).rpc;
    const [c, w, e, s] = await Promise.all([
      r.balance(m.creator.address),
      r.balance(m.worker.address),
      r.balance(m.info.escrow_address),
      r.supply(),
    ]);
    return {
      creator: BigInt(c.balance),
      worker: BigInt(w.balance),
      escrow: BigInt(e.balance),
      burned: BigInt(s.total_burned),
      treasury: BigInt(s.treasury),
    };
  });
}

/** A task posted for `order`, claimed by the sample worker, its result the sample's, completed and paid. */
async function taskCompleted(net: Testnet, m: MarketUse, order: TaskOrder): Promise<TaskAnswer> {
  const { client } = m;
  const created = await client.createTask(await fundedRequest(m.rpc, m.info, m.creator.privateKey, order));
  // pending, or already in_progress: the sample worker may claim it before the answer leaves
  // (docs/MARKET.md, POST /tasks: "pending (or later, if it moved on meanwhile)").
  assert.ok(
    ['pending', 'in_progress'].includes(created.status),
    `task ${created.task_id} is ${created.status}`,
  );
  // The task as last seen goes into a timeout's message (in progress with whose claim, which payouts).
  let seen = 'no answer';
  const done = await waitFor(
    `task ${created.task_id} completed and paid`,
    net.within(40),
    async () => {
      const t = await client.task(created.task_id);
      seen = `${t.status}, worker ${t.worker_address}, result at ${t.result_height}, payouts ${t.payouts.map((p) => p.status).join(' ') || 'none'}`;
      return t.status === 'completed' && t.payouts.every((p) => p.status === 'confirmed') ? t : null;
    },
    { seen: () => seen },
  );
  assert.equal(done.result?.worker_address, m.worker.address);
  assert.equal(done.result?.result_hash, sampleResultHash(done));
  net.log(`task ${done.task_id}: result at height ${done.result_height!}, ${done.payouts.length} payouts`);
  return done;
}

/** The result is in its block's compute_root on every node: the root of the block's results. */
async function resultInComputeRoot(net: Testnet, done: TaskAnswer): Promise<void> {
  const h = done.result_height!;
  for (const n of net.names()) {
    const b = await net.chain.block(n, h);
    const results = b.txs
      .filter((t) => t.tx_type === 'SUBMIT_RESULT')
      .map((t) => {
        const p = t.payload as { task_id: string; result_hash: string };
        return { txHash: t.tx_hash, taskId: p.task_id, resultHash: p.result_hash, worker: t.from_address };
      });
    assert.ok(
      results.some((r) => r.taskId === done.task_id && r.resultHash === done.result!.result_hash),
      `${n} at height ${h}: the block holds the task's SUBMIT_RESULT`,
    );
    assert.equal(b.header.compute_root, computeRoot(results), `${n} at height ${h}: compute_root`);
  }
}

/**
 * The payouts are the split: the validators' share to the reward addresses of the commit's signers
 * (of the node the market follows), equal parts, every remainder to the treasury. Each node keeps
 * the commit it gathered (the first two thirds of precommits it saw), so the signers differ between
 * nodes, and a market that failed over (client/failover.ts) used another node's: the payouts are
 * the split of one node's commit at that height. Returns the split.
 */
async function payoutsAreTheSplit(
  net: Testnet,
  m: MarketUse,
  done: TaskAnswer,
  reward: bigint,
): Promise<SharePart[]> {
  const { validators } = await net.node(net.names()[0]!).rpc.validators();
  const paid = done.payouts.map((p) => [p.share, p.to_address, p.amount]);
  const splits = new Map<string, SharePart[]>();
  for (const n of net.names()) {
    const signers = (await net.node(n).rpc.commit(done.result_height!)).signatures.map((s) => s.validator);
    const rewardAddresses = signers.map((s) => validators.find((v) => v.address === s)!.reward_address);
    splits.set(n, splitReward(reward, m.worker.address, rewardAddresses));
  }
  const asSplit = (parts: SharePart[]) => parts.map((p) => [p.share, p.to, p.amount.toString()]);
  const parts = [...splits.values()].find((ps) => isDeepStrictEqual(asSplit(ps), paid));
  // Not the split of any node's commit: the difference from the first node's, to read.
  if (parts === undefined)
    assert.deepEqual(paid, asSplit(splits.get(net.names()[0]!)!), 'the payouts are the split of the reward');
  assert.ok(parts !== undefined);
  const share = (s: Share) => shareOf(parts, s);
  assert.equal(share('burn'), (reward * 60n) / 100n);
  assert.equal(share('worker'), (reward * 25n) / 100n);
  assert.equal(
    parts.reduce((a, p) => a + p.amount, 0n),
    reward,
    'the shares sum to the reward',
  );
  return parts;
}

/**
 * A task with too little time left for the worker; a claim of it for the worker signed by another
 * key is refused, and changes nothing. Returns the task's id.
 */
async function forgedClaimRefused(m: MarketUse, order: TaskOrder): Promise<string> {
  const { client, info, creator } = m;
  const late = await client.createTask(
    await fundedRequest(m.rpc, info, creator.privateKey, {
      ...order,
      reward: LATE_REWARD,
      // Less chain time than the sample worker's --min-time-left (30 s): it leaves the task. 25 s,
      // not less: the deadline must still be after the chain time when the market checks it, a
      // few RPC calls later (6 s was refused on a busy runner: 'deadline must be after the chain
      // time'); the chain time is then jumped past it (lateTaskFailedAndRefunded).
      deadline: (await client.info()).chain_time + LATE_DEADLINE_S,
    }),
  );
  const forged = signStatement('claim', info.chain_id, late.task_id, creator.privateKey);
  const refused = await fetch(`${m.url}/tasks/${late.task_id}/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...forged, worker_address: m.worker.address }),
  });
  const detail = ((await refused.json()) as { detail: string }).detail;
  assert.equal(refused.status, 403, `a forged claim: ${detail}`);
  assert.match(detail, /pub_key/);
  assert.equal((await client.task(late.task_id)).status, 'pending');
  return late.task_id;
}

/**
 * Past its deadline (chain time, moved past it at once: net.time.advance) the late task fails,
 * and the creator gets the reward back.
 */
async function lateTaskFailedAndRefunded(net: Testnet, m: MarketUse, taskId: string): Promise<TaskAnswer> {
  await net.time.advance((LATE_DEADLINE_S + 5) * 1000);
  const failed: TaskAnswer = await waitFor(`task ${taskId} failed and refunded`, net.within(40), async () => {
    const t = await m.client.task(taskId);
    return t.status === 'failed' && t.payouts.every((p) => p.status === 'confirmed') ? t : null;
  });
  assert.equal(failed.failure?.reason, 'deadline');
  assert.deepEqual(
    failed.payouts.map((p) => [p.share, p.to_address, p.amount]),
    [['refund', m.creator.address, LATE_REWARD.toString()]],
  );
  return failed;
}

/**
 * Every node, to the wei: the creator paid both rewards and two fees and got one reward back; the
 * worker got its share and paid its SUBMIT_RESULT; the escrow kept nothing of the rewards and paid
 * each payout's fee from its float.
 */
async function booksToTheWei(
  net: Testnet,
  m: MarketUse,
  before: Books,
  reward: bigint,
  parts: readonly SharePart[],
  payouts: readonly PayoutAnswer[],
): Promise<void> {
  const fee = feeOf('TRANSFER', net.params);
  const expected: Books = {
    creator: before.creator - reward - fee - LATE_REWARD - fee + LATE_REWARD,
    worker: before.worker + shareOf(parts, 'worker') - feeOf('SUBMIT_RESULT', net.params),
    escrow: before.escrow - BigInt(payouts.length) * fee,
    burned: before.burned + shareOf(parts, 'burn'),
    treasury: before.treasury + shareOf(parts, 'treasury'),
  };
  await net.chain.waitBlocks(2);
  for (const n of net.names()) {
    const { height, value } = await booksOf(net, m, n);
    for (const k of Object.keys(expected) as (keyof Books)[])
      assert.equal(value[k], expected[k], `${n} at height ${height}: ${k}`);
  }
}

/**
 * Every transition of a task against a real node core, and the money of each, to the wei:
 * pending -> in_progress by the first valid claim (forged and mismatched claims refused and
 * changing nothing), in_progress -> completed by the claimer's SUBMIT_RESULT in a later block
 * before the deadline (anyone else's does not count) with the split paid once, -> failed at the
 * deadline or on the claimer's signed report with the creator refunded. Every account the money
 * touches is checked exactly, the validator's block rewards included.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import {
  BURN_ADDRESS,
  coins,
  computeRoot,
  TREASURY_ADDRESS,
  type Tx,
  txHash,
  txToJson,
} from '../../../src/chain/index.js';
import type { ClaimAnswer, CreateTaskAnswer, TaskListAnswer } from '../../../src/market/answers.js';
import { signStatement } from '../../../src/market/claims.js';
import { MarketClient } from '../../../src/market/client.js';
import { splitReward } from '../../../src/market/split.js';
import { sampleResultHash, workTask, worthClaiming } from '../../../src/market/worker.js';
import { key } from '../../fixtures.js';
import {
  balanceOf,
  CHAIN,
  CREATOR,
  ESCROW,
  FEE,
  type MarketHarness,
  makeMarketHarness,
  newTask,
  OTHER_WORKER,
  taskOf as task,
  VALIDATOR,
  WORKER,
} from '../../support/marketHarness.js';

const SUBMIT_FEE = 80_000_000n;
const RESULT = 'ab'.repeat(32);

const claim = (m: MarketHarness, id: string, body: object) => m.request('POST', `/tasks/${id}/claim`, body);

async function submitResult(
  m: MarketHarness,
  from: typeof WORKER,
  id: string,
  resultHash = RESULT,
): Promise<Tx> {
  const tx = await m.sign(from, { type: 'SUBMIT_RESULT', payload: { taskId: id, resultHash } });
  const sent = await m.rpc.sendTx(tx);
  assert.equal(sent.status, 'received', sent.error);
  return tx;
}

/** The block rewards and fees the sole validator earned in blocks from..to (it proposes them all). */
async function validatorEarnings(m: MarketHarness, from: number, to: number): Promise<bigint> {
  let sum = 0n;
  for (let h = from; h <= to; h++) {
    const b = await m.rpc.block(h);
    sum += coins(10);
    for (const t of b.txs) if ((await m.rpc.receipt(t.tx_hash)).status === 'confirmed') sum += BigInt(t.fee);
  }
  return sum;
}

describe('claims', () => {
  let m: MarketHarness;
  let id: string;
  before(async () => {
    m = await makeMarketHarness();
    id = await newTask(m);
  });
  after(() => m.close());

  it('a forged or mismatched claim is refused 403 naming the field, and changes nothing', async () => {
    const own = signStatement('claim', CHAIN, id, WORKER.privateKey);
    const byOther = signStatement('claim', CHAIN, id, OTHER_WORKER.privateKey);
    const cases: [string, object, string][] = [
      [
        "another key's signature for worker's address and key",
        { ...own, signature: byOther.signature },
        'signature',
      ],
      [
        "another key's pub_key for worker's address",
        { ...byOther, worker_address: WORKER.account },
        'pub_key',
      ],
      [
        'a claim of another task (replayed)',
        { ...signStatement('claim', CHAIN, 'c4df1f70-125e-8922-958a-285f2fe4dab5', WORKER.privateKey) },
        'signature',
      ],
      [
        'a claim for another chain',
        signStatement('claim', 'chain-testnet-1', id, WORKER.privateKey),
        'signature',
      ],
      [
        'a failure report used as a claim',
        signStatement('failure', CHAIN, id, WORKER.privateKey),
        'signature',
      ],
      [
        'v flipped',
        { ...own, signature: own.signature.slice(0, -2) + (own.signature.endsWith('00') ? '01' : '00') },
        'signature',
      ],
    ];
    for (const [name, body, field] of cases) {
      const res = await claim(m, id, body);
      assert.equal(res.status, 403, `${name}: ${res.text}`);
      assert.ok((res.json() as { detail: string }).detail.startsWith(`${field} `), `${name}: ${res.text}`);
    }
    const t = await task(m, id);
    assert.equal(t.status, 'pending');
    assert.equal(t.worker_address, null);
  });

  it('400 for a malformed claim or task id, 404 for an unknown task, 503 while the chain is out of reach', async () => {
    const own = signStatement('claim', CHAIN, id, WORKER.privateKey);
    for (const [body, detail] of [
      [{ ...own, signature: undefined }, 'signature is required'],
      [{ ...own, signature: 'zz' }, 'signature must be 130 lowercase hex (r, s, v)'],
      [{ ...own, pub_key: '04'.repeat(33) }, 'pub_key must be 66 lowercase hex (a compressed public key)'],
      [{ ...own, worker_address: 'coin1nope' }, 'worker_address must be a coin1 address'],
      [{ ...own, extra: 1 }, 'extra is not a known field'],
    ] as const) {
      const res = await claim(m, id, body);
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.json(), { detail });
    }
    const badId = await claim(m, 'NOT-A-UUID', own);
    assert.deepEqual([badId.status, badId.json()], [400, { detail: 'task_id must be a lowercase UUID' }]);
    const unknown = '00000000-0000-8000-8000-000000000000';
    const missing = await claim(m, unknown, signStatement('claim', CHAIN, unknown, WORKER.privateKey));
    assert.deepEqual([missing.status, missing.json()], [404, { detail: 'Task not found' }]);
    m.unavailable = 'Catching up with the chain: 12 blocks behind its node';
    try {
      const busy = await claim(m, id, own);
      assert.deepEqual(
        [busy.status, busy.json()],
        [503, { detail: 'Catching up with the chain: 12 blocks behind its node' }],
      );
    } finally {
      m.unavailable = null;
    }
    assert.equal((await task(m, id)).status, 'pending');
  });

  it('pending -> in_progress: the first valid claim wins; the same worker again 200, another 409', async () => {
    const res = await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json(), {
      task_id: id,
      status: 'in_progress',
      worker_address: WORKER.account,
      claimed_at: m.service.books.chain_time,
      claim_expires_at: m.service.books.chain_time + 3_600,
    } satisfies ClaimAnswer);
    const again = await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey));
    assert.equal(again.status, 200);
    const other = await claim(m, id, signStatement('claim', CHAIN, id, OTHER_WORKER.privateKey));
    assert.deepEqual(
      [other.status, other.json()],
      [409, { detail: 'Task already claimed by another worker' }],
    );
    const t = await task(m, id);
    assert.equal(t.status, 'in_progress');
    assert.equal(t.worker_address, WORKER.account);
  });
});

describe('completion and the split', () => {
  let m: MarketHarness;
  before(async () => {
    m = await makeMarketHarness();
  });
  after(() => m.close());

  it("in_progress -> completed by the claimer's SUBMIT_RESULT; the split exact to the wei on every account", async () => {
    const reward = coins(7) + 13n;
    const id = await newTask(m, reward);
    const creatorAfterFunding = balanceOf(m, CREATOR.account);
    assert.equal((await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey))).status, 200);

    // Someone else's result for the task: in a block, confirmed, and it changes nothing.
    await submitResult(m, OTHER_WORKER, id, 'cd'.repeat(32));
    await m.step();
    assert.equal((await task(m, id)).status, 'in_progress');

    const start = m.h.service.state.height;
    const before = {
      worker: balanceOf(m, WORKER.account),
      validator: balanceOf(m, VALIDATOR.account),
      escrow: balanceOf(m, ESCROW.account),
      burned: m.h.service.state.totals.burned,
      treasury: m.h.service.state.totals.treasury,
    };
    const tx = await submitResult(m, WORKER, id);
    await m.step(); // the result's block; the market plans and sends the payouts
    const resultHeight = m.h.service.state.height;
    const block = await m.rpc.block(resultHeight);
    const t = await task(m, id);
    assert.equal(t.status, 'completed');
    assert.deepEqual(t.result, {
      result_hash: RESULT,
      worker_address: WORKER.account,
      completed_at: block.header.timestamp,
    });
    assert.equal(t.result_height, resultHeight);
    assert.equal(t.result_tx_hash, txHash(tx, CHAIN));
    // The block's compute_root is the root over this result (the only SUBMIT_RESULT in it).
    assert.equal(
      block.header.compute_root,
      computeRoot([{ txHash: t.result_tx_hash!, taskId: id, resultHash: RESULT, worker: WORKER.account }]),
    );

    const parts = splitReward(reward, WORKER.account, [VALIDATOR.account]);
    assert.deepEqual(
      t.payouts.map((p) => [p.share, p.to_address, p.amount, p.status]),
      parts.map((p) => [p.share, p.to, p.amount.toString(), 'planned']),
    );
    assert.deepEqual(
      parts.map((p) => p.amount),
      [
        (coins(7) * 60n) / 100n + 7n,
        (coins(7) * 25n) / 100n + 3n,
        coins(7) / 10n + 1n,
        (coins(7) * 5n) / 100n + 2n,
      ],
      '60/25/10 floored, the rest (here 2 wei over 5%) to the treasury',
    );
    await m.step(); // the payouts' block
    const paid = await task(m, id);
    assert.deepEqual(
      paid.payouts.map((p) => p.status),
      ['confirmed', 'confirmed', 'confirmed', 'confirmed'],
    );
    const end = m.h.service.state.height;
    for (const p of paid.payouts) assert.equal((await m.rpc.receipt(p.tx_hash)).status, 'confirmed');

    const [burn, worker, validator, treasury] = parts.map((p) => p.amount) as [
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    const s = m.h.service.state;
    assert.equal(s.totals.burned - before.burned, burn, 'total_burned grew by the burn share');
    assert.equal(s.totals.treasury - before.treasury, treasury, "the state's treasury grew by its share");
    assert.equal(
      balanceOf(m, WORKER.account),
      before.worker - SUBMIT_FEE + worker,
      "the worker: its share less its SUBMIT_RESULT's fee",
    );
    assert.equal(
      balanceOf(m, VALIDATOR.account),
      before.validator + (await validatorEarnings(m, start + 1, end)) + validator,
      'the validator: its block rewards and fees, and its share',
    );
    assert.equal(
      balanceOf(m, ESCROW.account),
      before.escrow - reward - 4n * FEE,
      'the escrow: the reward out, and 4 fees from the float',
    );
    assert.equal(balanceOf(m, CREATOR.account), creatorAfterFunding, 'the creator paid once');
    assert.equal(s.accounts.get(BURN_ADDRESS), undefined);
    assert.equal(s.accounts.get(TREASURY_ADDRESS), undefined);

    // Settled: nothing more is paid, whatever blocks come.
    for (let i = 0; i < 3; i++) await m.step();
    assert.equal(m.h.service.state.accounts.get(ESCROW.account)?.nonce, 4, 'exactly 4 escrow transactions');
    const late = await claim(m, id, signStatement('claim', CHAIN, id, OTHER_WORKER.privateKey));
    assert.deepEqual(
      [late.status, late.json()],
      [409, { detail: 'Task is completed: it cannot be claimed' }],
    );
  });

  it('a SUBMIT_RESULT in a block before the claim does not count; one after it does', async () => {
    const id = await newTask(m);
    await submitResult(m, WORKER, id);
    await m.step();
    assert.equal((await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey))).status, 200);
    await m.step();
    assert.equal((await task(m, id)).status, 'in_progress', 'the early result is not the claimed work');
    await submitResult(m, WORKER, id);
    await m.step();
    assert.equal((await task(m, id)).status, 'completed');
  });

  it("a result in the deadline's own block (its time equal to the deadline) completes the task", async () => {
    const deadline = m.service.books.chain_time + 5;
    const id = await newTask(m, 100n, deadline);
    assert.equal((await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey))).status, 200);
    while (m.h.service.state.lastTimestamp < deadline - 1) await m.step();
    await submitResult(m, WORKER, id);
    await m.step();
    assert.equal(m.h.service.state.lastTimestamp, deadline, 'the block of the result is at the deadline');
    assert.equal((await task(m, id)).status, 'completed');
  });

  it('the sample worker claims only a task with at least --min-time-left of chain time before its deadline', () => {
    assert.equal(worthClaiming(1_030, 1_000, 30), true, 'exactly the time left it needs');
    assert.equal(worthClaiming(1_029, 1_000, 30), false, 'a second short');
    assert.equal(worthClaiming(1_000, 1_000, 0), true);
  });

  it('the sample worker claims, computes its documented hash and commits it; the task completes', async () => {
    const id = await newTask(m, 1000n);
    const market = new MarketClient('http://unused');
    // The worker's client calls go to the in-process app.
    Object.assign(market, {
      get: async (path: string) => (await m.request('GET', path)).json(),
      post: async (path: string, body: unknown) => {
        const r = await m.request('POST', path, body as object);
        if (r.status >= 400) throw Object.assign(new Error(r.text), { status: r.status });
        return r.json();
      },
    });
    const worked = workTask(
      {
        market,
        rpc: m.rpc,
        key: WORKER.privateKey,
        pollMs: 10,
        logger: memoryLogger(),
        signal: new AbortController().signal,
      },
      CHAIN,
      id,
    );
    assert.equal(await m.stepUntil(worked), true);
    await m.step();
    const t = await task(m, id);
    assert.equal(t.status, 'completed');
    assert.equal(t.result?.result_hash, sampleResultHash(t));
    // 1000 wei: 600 burned, 250 to the worker, 100 to the one validator, 50 to the treasury.
    assert.deepEqual(
      t.payouts.map((p) => [p.share, p.amount]),
      [
        ['burn', '600'],
        ['worker', '250'],
        ['validator', '100'],
        ['treasury', '50'],
      ],
    );
  });
});

describe('failures and refunds', () => {
  let m: MarketHarness;
  before(async () => {
    m = await makeMarketHarness();
  });
  after(() => m.close());

  it('pending -> failed at the first block past the deadline; the creator refunded exactly', async () => {
    const reward = coins(2) + 9n;
    const deadline = m.service.books.chain_time + 3;
    const creatorBefore = balanceOf(m, CREATOR.account);
    const id = await newTask(m, reward, deadline);
    const fundingFee = 21_000_000n;
    assert.equal(balanceOf(m, CREATOR.account), creatorBefore - reward - fundingFee);
    while (m.h.service.state.lastTimestamp <= deadline) await m.step();
    const t = await task(m, id);
    assert.equal(t.status, 'failed');
    assert.deepEqual(t.failure, { reason: 'deadline', failed_at: m.h.service.state.lastTimestamp });
    assert.deepEqual(
      t.payouts.map((p) => [p.share, p.to_address, p.amount]),
      [['refund', CREATOR.account, reward.toString()]],
    );
    await m.step();
    assert.equal((await task(m, id)).payouts[0]!.status, 'confirmed');
    assert.equal(
      balanceOf(m, CREATOR.account),
      creatorBefore - fundingFee,
      'all of the reward back; only its own fee spent',
    );
    const late = await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey));
    assert.deepEqual([late.status, late.json()], [409, { detail: 'Task is failed: it cannot be claimed' }]);
  });

  it('in_progress -> failed at the deadline; a result in a block past it does not complete', async () => {
    const deadline = m.service.books.chain_time + 4;
    const id = await newTask(m, coins(1), deadline);
    assert.equal((await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey))).status, 200);
    while (m.h.service.state.lastTimestamp < deadline) await m.step();
    await submitResult(m, WORKER, id);
    await m.step(); // its block is past the deadline
    const t = await task(m, id);
    assert.equal(t.status, 'failed');
    assert.equal(t.failure?.reason, 'deadline');
    assert.equal(t.result, undefined);
    assert.deepEqual(
      t.payouts.map((p) => p.share),
      ['refund'],
    );
  });

  it("in_progress -> failed on the claimer's signed report; nobody else may report it", async () => {
    const id = await newTask(m, 777n);
    const creatorBefore = balanceOf(m, CREATOR.account);
    const fail = (body: object) => m.request('POST', `/tasks/${id}/fail`, body);
    const notYet = await fail(signStatement('failure', CHAIN, id, WORKER.privateKey));
    assert.deepEqual(
      [notYet.status, notYet.json()],
      [409, { detail: 'Task is pending: only a task in progress can be reported failed' }],
    );
    assert.equal((await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey))).status, 200);
    const forged = await fail({
      ...signStatement('failure', CHAIN, id, OTHER_WORKER.privateKey),
      worker_address: WORKER.account,
    });
    assert.equal(forged.status, 403);
    const asClaim = await fail(signStatement('claim', CHAIN, id, WORKER.privateKey));
    assert.equal(asClaim.status, 403, 'a claim is not a failure report');
    const other = await fail(signStatement('failure', CHAIN, id, OTHER_WORKER.privateKey));
    assert.deepEqual(
      [other.status, other.json()],
      [409, { detail: 'Only the worker that claimed the task can report it failed' }],
    );
    assert.equal((await task(m, id)).status, 'in_progress');
    const res = await fail(signStatement('failure', CHAIN, id, WORKER.privateKey));
    assert.deepEqual([res.status, res.json()], [200, { task_id: id, status: 'failed' }]);
    const t = await task(m, id);
    assert.deepEqual(t.failure, { reason: 'reported', failed_at: m.service.books.chain_time });
    await m.step();
    assert.equal(balanceOf(m, CREATOR.account), creatorBefore + 777n);
    await submitResult(m, WORKER, id);
    await m.step();
    assert.equal((await task(m, id)).status, 'failed', 'a result after the report changes nothing');
  });
});

describe('GET /tasks and GET /tasks/{task_id}', () => {
  let m: MarketHarness;
  let ids: string[];
  before(async () => {
    m = await makeMarketHarness();
    ids = [];
    for (let i = 0; i < 3; i++) ids.push(await newTask(m, BigInt(100 + i)));
    const synth = await m.create(
      await m.order({ challenge_type: 'synthetic', payload: { generator: 'faker', count: 5 }, reward: 42n }),
    );
    ids.push((synth.json() as CreateTaskAnswer).task_id);
    await claim(m, ids[1]!, signStatement('claim', CHAIN, ids[1]!, WORKER.privateKey));
  });
  after(() => m.close());

  const list = async (q = '') => {
    const res = await m.request('GET', `/tasks${q}`);
    return { status: res.status, body: res.json() as TaskListAnswer & { detail?: string } };
  };

  it('lists in creation order with {task_id, challenge_type, status, reward}, total, limit 20, offset 0', async () => {
    const { status, body } = await list();
    assert.equal(status, 200);
    assert.deepEqual(body, {
      tasks: [
        { task_id: ids[0], challenge_type: 'inference', status: 'pending', reward: '100' },
        { task_id: ids[1], challenge_type: 'inference', status: 'in_progress', reward: '101' },
        { task_id: ids[2], challenge_type: 'inference', status: 'pending', reward: '102' },
        { task_id: ids[3], challenge_type: 'synthetic', status: 'pending', reward: '42' },
      ],
      total: 4,
      limit: 20,
      offset: 0,
    });
  });

  it('filters by status and challenge_type; pages by limit and offset (total counts the filter)', async () => {
    assert.deepEqual(
      (await list('?status=pending')).body.tasks.map((t) => t.task_id),
      [ids[0], ids[2], ids[3]],
    );
    assert.deepEqual(
      (await list('?status=pending&challenge_type=inference')).body.tasks.map((t) => t.task_id),
      [ids[0], ids[2]],
    );
    assert.equal((await list('?status=completed')).body.total, 0);
    const page = (await list('?limit=2&offset=1')).body;
    assert.deepEqual(
      [page.tasks.map((t) => t.task_id), page.total, page.limit, page.offset],
      [[ids[1], ids[2]], 4, 2, 1],
    );
    assert.deepEqual((await list('?offset=10')).body.tasks, []);
    assert.equal((await list('?limit=100')).status, 200);
  });

  it('400 naming the parameter', async () => {
    for (const [q, detail] of [
      ['?status=done', 'status must be one of pending, in_progress, completed, failed'],
      ['?challenge_type=x', 'challenge_type must be one of inference, training, rendering, synthetic'],
      ['?limit=0', 'limit must be an integer from 1 to 100'],
      ['?limit=101', 'limit must be an integer from 1 to 100'],
      ['?limit=abc', 'limit must be an integer from 1 to 100'],
      ['?offset=-1', 'offset must be an integer from 0 to 2^53-1'],
      ['?offset=1.5', 'offset must be an integer from 0 to 2^53-1'],
      ['?offset=99999999999999999', 'offset must be an integer from 0 to 2^53-1'],
      ['?status=pending&status=failed', 'status must be given at most once'],
      ['?sort=asc', 'sort is not a query parameter of GET /tasks (status, challenge_type, limit, offset)'],
    ]) {
      const { status, body } = await list(q);
      assert.equal(status, 400, q);
      assert.deepEqual(body, { detail }, q);
    }
  });

  it('GET /tasks/{task_id}: the task with its fields; 404 Task not found; 400 for a malformed id', async () => {
    const t = await task(m, ids[3]!);
    assert.deepEqual(
      { ...t, created_at: 0, deadline: 0, funding_tx_hash: '' },
      {
        task_id: ids[3],
        status: 'pending',
        challenge_type: 'synthetic',
        payload: { generator: 'faker', count: 5 },
        reward: '42',
        deadline: 0,
        created_at: 0,
        creator_address: CREATOR.account,
        funding_tx_hash: '',
        worker_address: null,
        claim_expires_at: null,
        failure: null,
        result_tx_hash: null,
        result_height: null,
        payouts: [],
      },
    );
    assert.equal(t.deadline, t.created_at + 86_400);
    const missing = await m.request('GET', '/tasks/00000000-0000-8000-8000-000000000000');
    assert.deepEqual([missing.status, missing.json()], [404, { detail: 'Task not found' }]);
    const bad = await m.request('GET', '/tasks/ABC');
    assert.deepEqual([bad.status, bad.json()], [400, { detail: 'task_id must be a lowercase UUID' }]);
    const wrong = await m.request('DELETE', `/tasks/${ids[0]}`);
    assert.equal(wrong.status, 405);
    assert.equal((await m.request('GET', '/nope')).status, 404);
  });
});

describe('the books: escrow and float apart', () => {
  it('a settlement the float cannot pay the fees of waits; a top-up pays it; no reward is touched', async () => {
    const m = await makeMarketHarness({ accounts: { escrow: 0n } });
    try {
      const reward = 1000n;
      const id = await newTask(m, reward);
      assert.equal((await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey))).status, 200);
      await submitResult(m, WORKER, id);
      await m.step();
      const t = await task(m, id);
      assert.equal(t.status, 'completed');
      assert.deepEqual(t.payouts, [], 'no plan: 4 fees are more than the float (0)');
      assert.equal(m.service.float(), 0n);
      for (let i = 0; i < 2; i++) await m.step();
      assert.equal(m.h.service.state.accounts.get(ESCROW.account)?.balance, reward, 'the reward untouched');
      // A transfer to the escrow without a market memo tops up the float.
      const topUp = await m.sign(CREATOR, { type: 'TRANSFER', to: ESCROW.account, amount: 4n * FEE });
      assert.equal((await m.rpc.sendTx(topUp)).status, 'received');
      await m.step(); // the top-up's block: the plan is made and sent
      await m.step(); // the payouts' block
      const paid = await task(m, id);
      assert.deepEqual(
        paid.payouts.map((p) => [p.share, p.amount, p.status]),
        [
          ['burn', '600', 'confirmed'],
          ['worker', '250', 'confirmed'],
          ['validator', '100', 'confirmed'],
          ['treasury', '50', 'confirmed'],
        ],
      );
      assert.equal(
        m.h.service.state.accounts.get(ESCROW.account)?.balance,
        0n,
        'all paid out, fees from the top-up',
      );
      assert.equal(m.service.float(), 0n);
    } finally {
      await m.close();
    }
  });
});

describe('a restart', () => {
  it('keeps every task and sends a plan made before it, as it was signed', async () => {
    const m = await makeMarketHarness();
    try {
      const id = await newTask(m, 5000n);
      assert.equal((await claim(m, id, signStatement('claim', CHAIN, id, WORKER.privateKey))).status, 200);
      await submitResult(m, WORKER, id);
      // The block is applied and the plan made, but the market stops before sending it.
      await m.h.produce();
      await m.follower.poll();
      const planned = (await task(m, id)).payouts;
      assert.equal(planned.length, 4);
      assert.equal(m.h.service.mempoolSize, 0, 'nothing sent yet');
      await m.restart();
      const after = await task(m, id);
      assert.equal(after.status, 'completed');
      assert.deepEqual(after.payouts, planned, 'the same plan, the same hashes');
      await m.payer.run();
      assert.equal(m.h.service.mempoolSize, 4);
      await m.payer.run(); // again: duplicates refused by the node
      await m.step();
      assert.deepEqual(
        (await task(m, id)).payouts.map((p) => p.status),
        ['confirmed', 'confirmed', 'confirmed', 'confirmed'],
      );
      assert.equal(m.h.service.state.accounts.get(ESCROW.account)?.nonce, 4);
      // A claim taken before a restart is kept.
      const id2 = await newTask(m, 10n);
      assert.equal(
        (await claim(m, id2, signStatement('claim', CHAIN, id2, key('worker').privateKey))).status,
        200,
      );
      await m.restart();
      assert.equal((await task(m, id2)).worker_address, WORKER.account);
    } finally {
      await m.close();
    }
  });
});

void txToJson;

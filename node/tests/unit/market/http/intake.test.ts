/**
 * POST /tasks and GET /market against a real node core: a task exists only once its reward is
 * final in the escrow; one payment makes one task however often it is posted; every refusal is
 * a 4xx `{"detail"}` naming the field, before any money moves; 413, 415, 503.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { coins, txFromJson, txHash, txToJson } from '../../../../src/chain/index.js';
import type { CreateTaskAnswer, MarketInfoAnswer } from '../../../../src/market/answers.js';
import { fundingMemo, taskIdOf } from '../../../../src/market/terms.js';
import {
  CREATOR,
  ESCROW,
  FLOAT,
  INFERENCE,
  type MarketHarness,
  makeMarketHarness,
  WORKER,
} from '../../../support/marketHarness.js';

const balance = (m: MarketHarness, address: string) => m.h.service.state.accounts.get(address)?.balance ?? 0n;
const fundingHash = (json: unknown) => {
  const parsed = txFromJson(json);
  assert.ok(parsed.ok);
  return txHash(parsed.tx, 'chain-devnet-1');
};

describe('POST /tasks: funded on chain, then pending', () => {
  let m: MarketHarness;
  before(async () => {
    m = await makeMarketHarness();
  });
  after(() => m.close());

  it('GET /market gives the chain id, the escrow, the chain time and the deadline bounds', async () => {
    const res = await m.request('GET', '/market');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      chain_id: 'chain-devnet-1',
      escrow_address: ESCROW.account,
      chain_time: m.h.service.state.lastTimestamp,
      height: m.h.service.state.height,
      default_deadline_seconds: 86_400,
      max_deadline_seconds: 30 * 86_400,
      claim_window_seconds: 3_600,
      max_claims_per_worker: 8,
    } satisfies MarketInfoAnswer);
  });

  it('201 {task_id, status: pending, created_at} once the payment is in a block the market applied', async () => {
    const body = await m.order({ reward: coins(3) + 7n });
    const creatorBefore = balance(m, CREATOR.account);
    const res = await m.create(body);
    assert.equal(res.status, 201, res.text);
    const answer = res.json() as CreateTaskAnswer;
    const hash = fundingHash(body.funding);
    assert.equal(answer.status, 'pending');
    assert.equal(answer.task_id, taskIdOf(hash!), 'the task id is the UUID of the funding hash');
    assert.match(
      answer.task_id,
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      'UUID v8',
    );
    const receipt = await m.rpc.receipt(hash!);
    assert.equal(receipt.status, 'confirmed');
    const block = await m.rpc.block(receipt.block_height!);
    assert.equal(answer.created_at, block.header.timestamp, 'created_at is the funding block time');
    assert.equal(balance(m, CREATOR.account), creatorBefore - coins(3) - 7n - BigInt(body.funding.fee));
    assert.equal(balance(m, ESCROW.account), FLOAT + coins(3) + 7n);

    // The same request again (a client that never saw the answer): the same task, no payment.
    const again = await m.request('POST', '/tasks', body);
    assert.equal(again.status, 200);
    assert.deepEqual(again.json(), answer);
    await m.step();
    assert.equal(balance(m, ESCROW.account), FLOAT + coins(3) + 7n, 'paid once');
    const listed = (await m.request('GET', '/tasks')).json() as { total: number };
    assert.equal(listed.total, 1);
  });

  it('a deadline, and the default deadline (created_at + 24 h) when none is given', async () => {
    const deadline = m.service.books.chain_time + 600;
    const withDeadline = (await m.create(await m.order({ deadline }))).json() as CreateTaskAnswer;
    const t1 = (await m.request('GET', `/tasks/${withDeadline.task_id}`)).json() as { deadline: number };
    assert.equal(t1.deadline, deadline);
    const without = (await m.create(await m.order({}))).json() as CreateTaskAnswer;
    const t2 = (await m.request('GET', `/tasks/${without.task_id}`)).json() as { deadline: number };
    assert.equal(t2.deadline, without.created_at + 86_400);
  });

  it('a payment already final when first posted (sent by the creator itself) makes the task at once', async () => {
    const body = await m.order({ reward: 5n });
    const sent = await m.rpc.sendTx(body.funding);
    assert.equal(sent.status, 'received');
    await m.step();
    await m.step();
    const res = await m.request('POST', '/tasks', body);
    assert.equal(res.status, 201, res.text);
    const receipt = await m.rpc.receipt(sent.tx_hash);
    const block = await m.rpc.block(receipt.block_height!);
    assert.equal((res.json() as CreateTaskAnswer).created_at, block.header.timestamp);
  });

  const refusals: [string, (b: Record<string, unknown>) => unknown, string][] = [
    ['not an object', () => [1], 'body must be a JSON object'],
    [
      'challenge_type unknown',
      (b) => ({ ...b, challenge_type: 'mining' }),
      'challenge_type must be one of inference, training, rendering, synthetic',
    ],
    [
      'reward 0',
      (b) => ({ ...b, reward: '0' }),
      'reward must be a decimal string of wei, above 0 and below 2^256',
    ],
    ['reward not decimal', (b) => ({ ...b, reward: '1e18' }), 'reward must be a decimal string of wei'],
    ['reward a number', (b) => ({ ...b, reward: 5 }), 'reward must be a decimal string of wei'],
    [
      'reward 2^256',
      (b) => ({ ...b, reward: (2n ** 256n).toString() }),
      'reward must be a decimal string of wei, above 0 and below 2^256',
    ],
    ['deadline negative', (b) => ({ ...b, deadline: -1 }), 'deadline must be Unix seconds'],
    ['deadline a string', (b) => ({ ...b, deadline: '12' }), 'deadline must be Unix seconds'],
    ['no funding', (b) => ({ ...b, funding: undefined }), 'funding is required'],
    ['no payload', (b) => ({ ...b, payload: undefined }), 'payload is required'],
    ['an unknown field', (b) => ({ ...b, priority: 1 }), 'priority is not a known field'],
    ['payload not an object', (b) => ({ ...b, payload: 'x' }), 'payload must be an object'],
    [
      'payload missing a field',
      (b) => ({ ...b, payload: { model_id: 'm', prompt: 'p' } }),
      'payload.max_tokens is required',
    ],
    [
      'payload max_tokens 0',
      (b) => ({ ...b, payload: { ...INFERENCE, max_tokens: 0 } }),
      'payload.max_tokens must be an integer from 1 to 32768',
    ],
    [
      'payload max_tokens 1.5',
      (b) => ({ ...b, payload: { ...INFERENCE, max_tokens: 1.5 } }),
      'payload.max_tokens must be an integer from 1 to 32768',
    ],
    [
      'payload temperature 2.5',
      (b) => ({ ...b, payload: { ...INFERENCE, temperature: 2.5 } }),
      'payload.temperature must be a number from 0 to 2 with at most 6 decimals',
    ],
    [
      'payload temperature 7 decimals',
      (b) => ({ ...b, payload: { ...INFERENCE, temperature: 0.1234567 } }),
      'payload.temperature must be a number from 0 to 2 with at most 6 decimals',
    ],
    [
      'payload prompt empty',
      (b) => ({ ...b, payload: { ...INFERENCE, prompt: '' } }),
      'payload.prompt must be a string of 1 to 16384 UTF-8 bytes',
    ],
    [
      'payload prompt 16385 bytes',
      (b) => ({ ...b, payload: { ...INFERENCE, prompt: `${'é'.repeat(8192)}x` } }),
      'payload.prompt must be a string of 1 to 16384 UTF-8 bytes',
    ],
    [
      'payload prompt a lone surrogate',
      (b) => ({ ...b, payload: { ...INFERENCE, prompt: '\ud800' } }),
      'payload.prompt must be a string of 1 to 16384 UTF-8 bytes',
    ],
    [
      'payload an unknown field',
      (b) => ({ ...b, payload: { ...INFERENCE, top_p: 0.9 } }),
      'payload.top_p is not a known field',
    ],
    [
      'payload of another type',
      (b) => ({ ...b, challenge_type: 'rendering' }),
      'payload.scene_uri is required',
    ],
    [
      'funding not a transaction',
      (b) => ({ ...b, funding: { tx_type: 'TRANSFER' } }),
      'funding.from_address is required',
    ],
    [
      'funding a bad nonce type',
      (b) => ({ ...b, funding: { ...(b.funding as object), nonce: 'x' } }),
      'funding.nonce must be integer',
    ],
  ];

  for (const [name, change, detail] of refusals)
    it(`400 naming the field: ${name}`, async () => {
      const body = (await m.order({})) as unknown as Record<string, unknown>;
      const escrowBefore = balance(m, ESCROW.account);
      const res = await m.request('POST', '/tasks', change(body) as object);
      assert.equal(res.status, 400, res.text);
      assert.ok((res.json() as { detail: string }).detail.startsWith(detail), res.text);
      assert.equal(m.h.service.mempoolSize, 0, 'nothing was sent');
      assert.equal(balance(m, ESCROW.account), escrowBefore);
    });

  it('400 funding.*: a payment that does not fit the terms is never sent', async () => {
    const good = await m.order({ reward: coins(2) });
    const cases: [string, () => Promise<object>, RegExp][] = [
      [
        'another reward',
        async () => ({ ...good, reward: coins(3).toString() }),
        /^funding\.amount must equal reward$/,
      ],
      [
        'other terms (a longer prompt) with the same payment',
        async () => ({ ...good, payload: { ...INFERENCE, prompt: 'Say hello' } }),
        /^funding\.payload\.memo must be market:[0-9a-f]{64} \(the hash of these terms/,
      ],
      [
        'to another account',
        async () => ({
          ...(await m.order({ reward: coins(2) })),
          funding: txToJson(
            await m.sign(CREATOR, {
              type: 'TRANSFER',
              to: WORKER.account,
              amount: coins(2),
              payload: {
                memo: fundingMemo({
                  challengeType: 'inference',
                  payload: INFERENCE,
                  reward: coins(2),
                  deadline: null,
                }),
              },
            }),
          ),
        }),
        new RegExp(`^funding\\.to_address must be the market's escrow ${ESCROW.account}$`),
      ],
      [
        'not a TRANSFER',
        async () => ({ ...good, funding: txToJson(await m.sign(CREATOR, { type: 'UNJAIL' })) }),
        /^funding\.tx_type must be TRANSFER$/,
      ],
      [
        'a forged signature (v flipped)',
        async () => ({
          ...good,
          funding: {
            ...good.funding,
            signature:
              good.funding.signature.slice(0, -2) + (good.funding.signature.endsWith('00') ? '01' : '00'),
          },
        }),
        /^funding\.signature is not from_address's signature of this transaction$/,
      ],
      [
        'for another chain',
        async () => ({ ...good, funding: { ...good.funding, chain_id: 'chain-testnet-1' } }),
        /^funding\.chain_id must be chain-devnet-1$/,
      ],
    ];
    for (const [name, body, detail] of cases) {
      const res = await m.request('POST', '/tasks', await body());
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      assert.match((res.json() as { detail: string }).detail, detail, name);
    }
    assert.equal(m.h.service.mempoolSize, 0, 'nothing was sent');
  });

  it('400 deadline: not after the chain time, or more than 30 days after it; nothing paid', async () => {
    const now = m.service.books.chain_time;
    for (const [deadline, detail] of [
      [now, `deadline must be after the chain time ${now}`],
      [now + 30 * 86_400 + 1, `deadline must be at most 2592000 s after the chain time ${now}`],
    ] as const) {
      const res = await m.request('POST', '/tasks', await m.order({ deadline }));
      assert.equal(res.status, 400);
      assert.deepEqual(res.json(), { detail });
    }
    assert.equal(m.h.service.mempoolSize, 0);
  });

  it('400 funding: a payment the node refuses (more than the creator has) makes no task', async () => {
    const body = await m.order({ reward: coins(1_000_000) });
    const res = await m.create(body);
    assert.equal(res.status, 400);
    assert.match(
      (res.json() as { detail: string }).detail,
      /^funding was refused by the node: insufficient balance/,
    );
    const id = taskIdOf(fundingHash(body.funding));
    assert.equal((await m.request('GET', `/tasks/${id}`)).status, 404);
    assert.equal(await m.service.task(id), undefined, 'nothing kept');
  });

  it('413 for a body over 64 KiB, 415 for another Content-Type, 400 for bad JSON', async () => {
    const big = await m.request('POST', '/tasks', `{"x":"${'a'.repeat(70_000)}"}`, {
      'content-type': 'application/json',
    });
    assert.equal(big.status, 413);
    assert.deepEqual(big.json(), { detail: 'Request body too large: the limit is 65536 bytes' });
    const text = await m.request('POST', '/tasks', 'hello', { 'content-type': 'text/plain' });
    assert.equal(text.status, 415);
    assert.deepEqual(text.json(), { detail: 'Content-Type must be application/json' });
    const broken = await m.request('POST', '/tasks', '{"a":', { 'content-type': 'application/json' });
    assert.equal(broken.status, 400);
    assert.match((broken.json() as { detail: string }).detail, /^body is not JSON/);
  });

  it('503 with Retry-After while the chain cannot be reached; nothing sent', async () => {
    m.unavailable = 'Chain not reachable: the market cannot reach its node at http://x';
    try {
      const res = await m.request('POST', '/tasks', await m.order({}));
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.deepEqual(res.json(), {
        detail: 'Chain not reachable: the market cannot reach its node at http://x',
      });
      assert.equal(m.h.service.mempoolSize, 0);
    } finally {
      m.unavailable = null;
    }
  });

  it('503 when the payment is not final within the wait; the same request later gives the task', async () => {
    const short = await makeMarketHarness({ http: { fundingWaitMs: 500 } });
    try {
      const body = await short.order({ reward: 11n });
      const res = await short.request('POST', '/tasks', body); // no block is made meanwhile
      assert.equal(res.status, 503, res.text);
      assert.match(
        (res.json() as { detail: string }).detail,
        /^Funding not final yet: send the same request again/,
      );
      assert.equal(short.h.service.mempoolSize, 1, 'the payment was sent, once');
      const again = await short.create(body);
      assert.equal(again.status, 200, again.text);
      assert.equal((again.json() as CreateTaskAnswer).status, 'pending');
    } finally {
      await short.close();
    }
  });
});

/**
 * POST /tx/send_batch (extension, issue 29): what POST /tx/send does, for up to 256 transactions
 * in one request, each one's answer in order; a malformed batch is refused whole.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  coins,
  MAX_TXS_BATCH_BYTES,
  MAX_TXS_PER_BATCH,
  type Tx,
  txToJson,
} from '../../../src/chain/index.js';
import { RpcClient } from '../../../src/client/rpcClient.js';
import type { SubmitAnswer } from '../../../src/rpc/answers.js';
import { key, tx } from '../../fixtures.js';
import { type Harness, makeHarness } from '../../support/harness.js';

const BOB = key('bob');

function transfer(h: Harness, nonce: number, amount = 5n, from = 'alice'): Tx {
  return tx(h.service.state, from, 'TRANSFER', { to: BOB.account, amount, nonce });
}

const mempoolSize = async (h: Harness) =>
  ((await h.request('GET', '/status')).json() as { mempool_size: number }).mempool_size;

describe('POST /tx/send_batch', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness({ accounts: { alice: coins(1000), carol: coins(1000) } });
  });
  after(() => h.close());

  it('answers each transaction as POST /tx/send would, in order, and admits the received ones', async () => {
    const batch = [
      transfer(h, 0),
      transfer(h, 1),
      transfer(h, 2, coins(10_000)),
      transfer(h, 0, 7n, 'carol'),
    ];
    const res = await h.request('POST', '/tx/send_batch', batch.map(txToJson));
    assert.equal(res.status, 200);
    const answers = res.json() as SubmitAnswer[];
    assert.deepEqual(
      answers.map((a) => a.status),
      ['received', 'received', 'rejected', 'received'],
    );
    assert.match(answers[2]!.error ?? '', /^insufficient balance/);
    const single = await h.request('POST', '/tx/send', txToJson(transfer(h, 1)));
    assert.match(
      (single.json() as SubmitAnswer).error ?? '',
      /already pending/,
      'the same transaction sent alone',
    );
    assert.equal(await mempoolSize(h), 3);
    const block = await h.produce();
    assert.deepEqual(
      block.txs.map((t) => [t.from, t.nonce]),
      [
        [batch[0]!.from, 0],
        [batch[1]!.from, 1],
        [batch[3]!.from, 0],
      ],
    );
    for (const [i, a] of answers.entries()) assert.match(a.tx_hash, /^[0-9a-f]{64}$/, `answer ${i}`);
  });

  it('admits one of two identical copies in a batch, both answered with its answer', async () => {
    const nonce = h.service.state.accounts.get(key('alice').account)?.nonce ?? 0;
    const once = txToJson(transfer(h, nonce));
    const answers = (await h.request('POST', '/tx/send_batch', [once, once])).json() as SubmitAnswer[];
    assert.deepEqual(
      answers.map((a) => a.status),
      ['received', 'received'],
    );
    assert.equal(answers[0]!.tx_hash, answers[1]!.tx_hash);
    assert.equal(await mempoolSize(h), 1);
    assert.equal((await h.produce()).txs.length, 1, 'included once');
  });

  it('refuses a malformed batch whole (400 Invalid transaction format, the reason naming the transaction)', async () => {
    const nonce = h.service.state.accounts.get(key('alice').account)?.nonce ?? 0;
    const good = txToJson(transfer(h, nonce)) as unknown as Record<string, unknown>;
    const cases: [string, string | object, RegExp][] = [
      ['not JSON', '[{"tx_type": ', /^body is not JSON/],
      ['one transaction, not an array', good, /^body must be a JSON array of 1 to 256 transactions$/],
      ['an empty array', [], /^body must be a JSON array/],
      ['too many', Array.from({ length: MAX_TXS_PER_BATCH + 1 }, () => good), /^body must be a JSON array/],
      ['a malformed field', [good, { ...good, nonce: '1' }], /^transaction 1: nonce must be integer$/],
      ['an entry that is no object', [good, 7], /^transaction 1: body must be object$/],
      ['a bad checksum', [good, { ...good, to_address: 'coin1abc' }], /^transaction 1: /],
    ];
    for (const [name, body, reason] of cases) {
      const res = await h.request('POST', '/tx/send_batch', body, { 'content-type': 'application/json' });
      assert.equal(res.status, 400, name);
      assert.deepEqual(res.json(), { detail: 'Invalid transaction format' }, name);
      assert.match(String(res.headers['x-error-reason']), reason, name);
    }
    assert.equal(await mempoolSize(h), 0, 'the good transaction of a malformed batch is not admitted');
    const text = await h.request('POST', '/tx/send_batch', JSON.stringify([good]), {
      'content-type': 'text/plain',
    });
    assert.equal(text.status, 400);
  });

  it('answers 413 for a body over 1 MiB (503 before the state is loaded: rpc.test.ts)', async () => {
    const huge = `[${' '.repeat(MAX_TXS_BATCH_BYTES)}]`;
    const res = await h.request('POST', '/tx/send_batch', huge, { 'content-type': 'application/json' });
    assert.equal(res.status, 413);
    assert.match((res.json() as { detail: string }).detail, /too large/);
  });

  it('is what the client sends with sendTxs, over a real socket', async () => {
    const client = new RpcClient(await h.listen());
    const nonce = h.service.state.accounts.get(key('carol').account)?.nonce ?? 0;
    const answers = await client.sendTxs([
      transfer(h, nonce, 1n, 'carol'),
      transfer(h, nonce + 1, 1n, 'carol'),
    ]);
    assert.deepEqual(
      answers.map((a) => a.status),
      ['received', 'received'],
    );
    assert.equal((await h.produce()).txs.length, 2);
  });
});

/**
 * The admission pipeline: prechecks against verified state (waiting transactions only help),
 * identical copies joining the waiting one, the queue's own bound, one signature batch per
 * flush, admission in arrival order with the same errors as one-at-a-time admission, each
 * signature checked once (chain_signature_checks_total), and blocks' unknown transactions
 * verified in one batch. Forged twins in every position: forgedTwins.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlock, checkTxSignature, coins, type Tx, txHash, txToJson } from '../../../src/chain/index.js';
import { AdmissionQueue, type Flushed } from '../../../src/mempool/admissionQueue.js';
import { DEFAULT_MEMPOOL_OPTIONS, Mempool } from '../../../src/mempool/mempool.js';
import { SignatureCache } from '../../../src/mempool/signatureCache.js';
import type { SubmitOutcome } from '../../../src/rpc/backend.js';
import { genesisState, key, tx } from '../../fixtures.js';
import { flipV } from '../../forgeries.js';
import { pipeline as pipelineOf } from '../../support/admissionPipeline.js';
import { makeHarness } from '../../support/harness.js';

const state = genesisState({ accounts: { alice: coins(100), bob: coins(100), carol: coins(100) } });
const chainId = state.params.chainId;
const hashOf = (t: Tx) => txHash(t, chainId);
const transfer = (from: string, nonce: number, amount = 1n) =>
  tx(state, from, 'TRANSFER', { to: key('dave').account, amount, nonce });
const forge = (t: Tx): Tx => ({
  ...t,
  signature: `${t.signature.startsWith('aa') ? 'bb' : 'aa'}${t.signature.slice(2)}`,
});

function queue(opts: Partial<typeof DEFAULT_MEMPOOL_OPTIONS> = {}, maxWaiting?: number) {
  const signatures = new SignatureCache();
  const mempool = new Mempool({ ...DEFAULT_MEMPOOL_OPTIONS, ...opts }, signatures, () => 0);
  const q = new AdmissionQueue<string>(mempool, signatures, maxWaiting);
  /** The RPC's way in: prechecked against verified state first. */
  const offer = (t: Tx, tag: string, size = 300, at = state) => q.offer(t, hashOf(t), size, at, tag, true);
  return { q, offer, mempool, signatures };
}

const results = (flushed: Flushed<string>[]) =>
  flushed.map(
    ({ entry, result }) => `${entry.tags.join('+')}:${result.ok ? 'ok' : `${result.code} ${result.message}`}`,
  );

describe('admission queue', () => {
  it('passes a sender’s consecutive nonces sent back to back, then admits them in order with one batch', () => {
    const { q, offer, mempool, signatures } = queue();
    for (let n = 0; n < 5; n++)
      assert.deepEqual(offer(transfer('alice', n), `a${n}`), { ok: true }, `nonce ${n} prechecked`);
    assert.equal(mempool.size, 0, 'nothing is admitted before the flush');
    assert.equal(signatures.checks, 0, 'no signature is checked before the flush');
    // Without the waiting view, nonce 1 would be refused: the view is what lets the burst pass.
    const one = transfer('alice', 1);
    assert.equal(mempool.precheck(one, hashOf(one), 300, state).ok, false);
    assert.deepEqual(results(q.flush(state, 64)), ['a0:ok', 'a1:ok', 'a2:ok', 'a3:ok', 'a4:ok']);
    assert.equal(signatures.checks, 5);
    assert.deepEqual(
      mempool.select(state, 10_000_000).map((t) => t.nonce),
      [0, 1, 2, 3, 4],
    );
    assert.equal(q.count, 0);
  });

  it('refuses exactly the forged transaction of a batch, with the error one-at-a-time admission gives', () => {
    const { q, offer, mempool } = queue();
    const forged = forge(transfer('bob', 0));
    const burst: [Tx, string][] = [
      [transfer('alice', 0), 'a0'],
      [forged, 'b0'],
      [transfer('carol', 0), 'c0'],
    ];
    for (const [t, tag] of burst) assert.equal(offer(t, tag).ok, true);
    const expected = checkTxSignature(forged, chainId);
    assert.equal(expected?.code, 'INVALID_SIGNATURE');
    assert.deepEqual(results(q.flush(state, 64)), [
      'a0:ok',
      `b0:INVALID_SIGNATURE ${expected?.message}`,
      'c0:ok',
    ]);
    assert.equal(mempool.size, 2);
    const alone = queue().mempool.admit(forged, hashOf(forged), 300, state);
    assert.deepEqual(alone, { ok: false, code: 'INVALID_SIGNATURE', message: expected?.message });
  });

  it('refuses the transactions after a forged nonce of the same sender, as the chain would', () => {
    const { q, offer } = queue();
    const burst = [transfer('alice', 0), forge(transfer('alice', 1)), transfer('alice', 2)];
    for (const [n, t] of burst.entries()) offer(t, `a${n}`);
    const r = results(q.flush(state, 64));
    assert.equal(r[0], 'a0:ok');
    assert.match(r[1]!, /^a1:INVALID_SIGNATURE /);
    assert.equal(r[2], 'a2:BAD_NONCE bad nonce: expected 1, got 2');
  });

  it('joins an identical copy to the waiting transaction; a twin or another of its nonce waits for its own answer', () => {
    const { q, offer, signatures } = queue();
    const t = transfer('alice', 0);
    assert.deepEqual(offer(t, 'first'), { ok: true });
    assert.deepEqual(offer(t, 'again'), { ok: true }, 'the same transaction: it joins the first');
    assert.equal(q.count, 1);
    const twin = flipV(t);
    assert.notEqual(hashOf(twin), hashOf(t));
    assert.deepEqual(offer(twin, 'twin'), { ok: true }, 'another transaction: nothing verified refuses it');
    const other = transfer('alice', 0, 2n);
    assert.deepEqual(offer(other, 'other'), { ok: true });
    const r = results(q.flush(state, 64));
    assert.equal(r[0], 'first+again:ok');
    assert.match(r[1]!, /^twin:INVALID_SIGNATURE /);
    assert.equal(
      r[2],
      `other:BAD_NONCE bad nonce: nonce 0 is already used by pending transaction ${hashOf(t)}`,
    );
    assert.equal(signatures.checks, 3, 'the copy was not checked again');
    assert.deepEqual(offer(t, 'later'), {
      ok: false,
      code: 'DUPLICATE',
      message: `transaction ${hashOf(t)} is already pending`,
    });
  });

  it('counts only pooled, verified transactions against the mempool’s bounds, which refuse after the batch', () => {
    const count = queue({ maxTxs: 2 });
    for (const t of [transfer('alice', 0), transfer('bob', 0), transfer('carol', 0)])
      assert.equal(count.offer(t, '').ok, true);
    assert.deepEqual(
      results(count.q.flush(state, 64)).at(-1),
      ':MEMPOOL_FULL mempool is full (2 transactions): try again later',
    );
    const third = transfer('carol', 0);
    assert.deepEqual(count.offer(third, ''), {
      ok: false,
      code: 'MEMPOOL_FULL',
      message: 'mempool is full (2 transactions): try again later',
    });

    const bytes = queue({ maxBytes: 1000 });
    assert.equal(bytes.offer(transfer('alice', 0), '', 900).ok, true);
    assert.equal(bytes.offer(transfer('bob', 0), '', 200).ok, true);
    assert.match(results(bytes.q.flush(state, 64))[1]!, /^:MEMPOOL_FULL mempool is full \(1000 bytes\)/);
    const r = bytes.offer(transfer('carol', 0), '', 200);
    assert.equal(r.ok ? '' : r.code, 'MEMPOOL_FULL');

    const sender = queue({ maxPerSender: 2 });
    for (let n = 0; n < 3; n++) assert.equal(sender.offer(transfer('alice', n), `a${n}`).ok, true);
    assert.equal(
      results(sender.q.flush(state, 64))[2],
      'a2:SENDER_QUEUE_FULL sender already has 2 pending transactions (the most allowed)',
    );
    assert.deepEqual(sender.offer(transfer('alice', 2), ''), {
      ok: false,
      code: 'SENDER_QUEUE_FULL',
      message: 'sender already has 2 pending transactions (the most allowed)',
    });
  });

  it('bounds its callers: past the bound an arrival is told the node is busy, and a resend passes', () => {
    const { q, offer } = queue({}, 3);
    const t = transfer('alice', 0);
    for (const [tag, tx] of [
      ['a0', t],
      ['a0 again', t],
      ['b0', transfer('bob', 0)],
    ] as const)
      assert.equal(offer(tx, tag).ok, true, tag);
    const busy = offer(transfer('carol', 0), 'c0');
    assert.deepEqual(busy, {
      ok: false,
      code: 'BUSY',
      message: 'node busy: 3 transactions wait for their signature check; send it again shortly',
    });
    assert.equal(offer(t, 'a0 third').ok, false, 'a copy counts too: each caller holds an answer');
    assert.deepEqual(results(q.flush(state, 64)), ['a0+a0 again:ok', 'b0:ok']);
    assert.equal(offer(transfer('carol', 0), 'c0 resent').ok, true);
  });

  it('refuses at once what verified state refuses, and leaves to the batch what a waiting transaction may change', () => {
    const { q, offer } = queue();
    const tooMuch = offer(transfer('alice', 0, coins(200)), 'too much');
    assert.equal(tooMuch.ok ? '' : tooMuch.code, 'INSUFFICIENT_BALANCE', 'no waiting transaction can help');
    const big = transfer('alice', 0, coins(60));
    assert.equal(offer(big, 'big').ok, true);
    const more = transfer('alice', 1, coins(60));
    assert.equal(offer(more, 'more').ok, true, 'waits: had `big` been forged, `more` would be valid');
    assert.deepEqual(results(q.flush(state, 64)), [
      'big:ok',
      'more:INSUFFICIENT_BALANCE insufficient balance: have 39999999999979000000 wei, need 60000000000021000000 wei',
    ]);
  });

  it('checks again at the flush what changed since the precheck', () => {
    const { q, offer } = queue();
    assert.equal(offer(transfer('alice', 0, coins(60)), 'big').ok, true);
    // The state changed between the precheck and the flush (a block spent alice's coins).
    const poorer = genesisState({ accounts: { alice: coins(10), bob: coins(100), carol: coins(100) } });
    const again = q.flush(poorer, 64)[0]!.result;
    assert.equal(again.ok ? '' : again.code, 'INSUFFICIENT_BALANCE');
  });

  it('flushes at most `max` at a time, the rest staying in order', () => {
    const { q, offer } = queue();
    for (let n = 0; n < 5; n++) offer(transfer('alice', n), `a${n}`);
    assert.deepEqual(results(q.flush(state, 2)), ['a0:ok', 'a1:ok']);
    assert.equal(q.count, 3);
    assert.deepEqual(results(q.flush(state, 2)), ['a2:ok', 'a3:ok']);
    assert.deepEqual(results(q.flush(state, 2)), ['a4:ok']);
  });
});

describe('admission scheduling', () => {
  const pipeline = (maxBatch = 64) => pipelineOf(state, { maxBatch });

  it('settles a burst in one flush on a later turn, and gossips the RPC’s transactions as one batch', async () => {
    const { admission, turns, gossiped, mempool } = pipeline();
    const settled: SubmitOutcome[] = [];
    const rpc = [0, 1, 2].map((n) =>
      admission.submit(txToJson(transfer('alice', n)), 300, true).then((o) => settled.push(o)),
    );
    const peer = admission.submitAll([txToJson(transfer('bob', 0))], 300);
    assert.equal(turns.length, 1, 'one flush scheduled for the whole burst');
    await Promise.resolve();
    assert.equal(settled.length, 0, 'nothing settles before the flush');
    assert.equal(mempool.size, 0);
    turns.shift()!();
    await Promise.all(rpc);
    assert.deepEqual(
      settled.map((o) => o.kind),
      ['received', 'received', 'received'],
    );
    const fromPeer = await peer;
    assert.equal(fromPeer.kind === 'checked' ? fromPeer.outcomes[0]?.kind : fromPeer.kind, 'received');
    assert.deepEqual(
      gossiped.map((batch) => batch.map((t) => t.nonce)),
      [[0, 1, 2]],
      'only the RPC’s transactions, once, together',
    );
    assert.equal(turns.length, 0, 'nothing scheduled when idle');
  });

  it('schedules another flush while more than maxBatch wait', async () => {
    const { admission, turns, signatures } = pipeline(2);
    const all = [0, 1, 2].map((n) => admission.submit(txToJson(transfer('alice', n)), 300, true));
    turns.shift()!();
    assert.equal(signatures.checks, 2);
    assert.equal(admission.waiting, 1);
    assert.equal(turns.length, 1);
    turns.shift()!();
    assert.deepEqual(
      (await Promise.all(all)).map((o) => o.kind),
      ['received', 'received', 'received'],
    );
  });

  it('refuses a gossip message as a whole when one transaction is malformed, admitting none of it', async () => {
    const { admission, turns, mempool } = pipeline();
    const outcome = await admission.submitAll([txToJson(transfer('alice', 0)), { tx_type: 'TRANSFER' }], 600);
    assert.equal(outcome.kind, 'malformed');
    assert.match(outcome.kind === 'malformed' ? outcome.reason : '', /^transaction 1: /);
    assert.equal(admission.waiting, 0);
    assert.equal(turns.length, 0);
    assert.equal(mempool.size, 0);
  });
});

describe('admission in the node', () => {
  const checksMetric = async (h: Awaited<ReturnType<typeof makeHarness>>) => {
    const text = (await h.request('GET', '/metrics')).text;
    return Number(/^chain_signature_checks_total (\S+)$/m.exec(text)?.[1]);
  };

  it('counts each signature once in chain_signature_checks_total, batched or not', async () => {
    const h = await makeHarness({ accounts: { alice: coins(100), bob: coins(100) } });
    try {
      const s = h.service.state;
      const txs = [0, 1, 2, 3].map((n) =>
        tx(s, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n, nonce: n }),
      );
      const forged = forge(tx(s, 'bob', 'TRANSFER', { to: key('alice').account, amount: 1n }));
      const outcomes = await Promise.all([
        ...txs.map((t) => h.service.submit(txToJson(t), 300)),
        h.service.submit(txToJson(txs[0]!), 300),
        h.service.submit(txToJson(forged), 300),
      ]);
      assert.deepEqual(
        outcomes.map((o) => (o.kind === 'rejected' ? o.code : o.kind)),
        ['received', 'received', 'received', 'received', 'received', 'INVALID_SIGNATURE'],
      );
      assert.equal(await checksMetric(h), 5, 'four valid and one forged, the identical copy not checked');
      await h.produce();
      assert.equal(h.service.state.height, 1);
      assert.equal(await checksMetric(h), 5, 'the block’s transactions were known');
    } finally {
      await h.close();
    }
  });

  it('verifies a proposed block’s unknown transactions once, a forged one included', async () => {
    const h = await makeHarness({ accounts: { alice: coins(100), bob: coins(100) } });
    try {
      const s = h.service.state;
      const proposer = key('val-0').privateKey;
      const txs = [
        tx(s, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n }),
        tx(s, 'bob', 'TRANSFER', { to: key('alice').account, amount: 1n }),
      ];
      const build = (list: Tx[]) =>
        buildBlock(
          s,
          list,
          { timestamp: s.lastTimestamp + 1, round: 0, privateKey: proposer },
          { isSignatureValid: () => true },
        ).block;
      const good = build(txs);
      h.service.validateBlock(good);
      assert.equal(await checksMetric(h), 2);
      h.service.validateBlock(good);
      assert.equal(await checksMetric(h), 2, 'remembered');
      const bad = build([txs[0]!, forge(txs[1]!)]);
      assert.throws(() => h.service.validateBlock(bad), { code: 'BAD_TX_SIGNATURE' });
      assert.equal(
        await checksMetric(h),
        3,
        'the forged signature was checked once, not again by applyBlock',
      );
    } finally {
      await h.close();
    }
  });
});

/**
 * The admission pipeline: prechecks against the mempool plus what already waits, one signature
 * batch per flush, admission in arrival order with the same errors as one-at-a-time admission,
 * each signature checked once (chain_signature_checks_total), and blocks' unknown transactions
 * verified in one batch.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlock, checkTxSignature, coins, type Tx, txHash, txToJson } from '../../src/chain/index.js';
import { AdmissionQueue } from '../../src/mempool/admissionQueue.js';
import { DEFAULT_MEMPOOL_OPTIONS, Mempool } from '../../src/mempool/mempool.js';
import { SignatureCache } from '../../src/mempool/signatureCache.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { Admission, type SubmitOutcome, type Waiter } from '../../src/node/admission.js';
import { genesisState, key, tx } from '../fixtures.js';
import { makeHarness } from './harness.js';

const state = genesisState({ accounts: { alice: coins(100), bob: coins(100), carol: coins(100) } });
const chainId = state.params.chainId;
const hashOf = (t: Tx) => txHash(t, chainId);
const transfer = (from: string, nonce: number, amount = 1n) =>
  tx(state, from, 'TRANSFER', { to: key('dave').account, amount, nonce });
const forge = (t: Tx): Tx => ({
  ...t,
  signature: `${t.signature.startsWith('aa') ? 'bb' : 'aa'}${t.signature.slice(2)}`,
});

function queue(opts: Partial<typeof DEFAULT_MEMPOOL_OPTIONS> = {}) {
  const signatures = new SignatureCache();
  const mempool = new Mempool({ ...DEFAULT_MEMPOOL_OPTIONS, ...opts }, signatures, () => 0);
  return { q: new AdmissionQueue<string>(mempool, signatures), mempool, signatures };
}

const results = (
  flushed: { entry: { tag: string }; result: { ok: boolean; code?: string; message?: string } }[],
) =>
  flushed.map(({ entry, result }) => `${entry.tag}:${result.ok ? 'ok' : `${result.code} ${result.message}`}`);

describe('admission queue', () => {
  it('passes a sender’s consecutive nonces sent back to back, then admits them in order with one batch', () => {
    const { q, mempool, signatures } = queue();
    for (let n = 0; n < 5; n++) {
      const t = transfer('alice', n);
      assert.deepEqual(q.offer(t, hashOf(t), 300, state, `a${n}`), { ok: true }, `nonce ${n} prechecked`);
    }
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
    assert.equal(q.bytes, 0);
  });

  it('refuses exactly the forged transaction of a batch, with the error one-at-a-time admission gives', () => {
    const { q, mempool } = queue();
    const forged = forge(transfer('bob', 0));
    const burst: [Tx, string][] = [
      [transfer('alice', 0), 'a0'],
      [forged, 'b0'],
      [transfer('carol', 0), 'c0'],
    ];
    for (const [t, tag] of burst) assert.equal(q.offer(t, hashOf(t), 300, state, tag).ok, true);
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
    const { q } = queue();
    const burst = [transfer('alice', 0), forge(transfer('alice', 1)), transfer('alice', 2)];
    for (const [n, t] of burst.entries()) q.offer(t, hashOf(t), 300, state, `a${n}`);
    const r = results(q.flush(state, 64));
    assert.equal(r[0], 'a0:ok');
    assert.match(r[1]!, /^a1:INVALID_SIGNATURE /);
    assert.equal(r[2], 'a2:BAD_NONCE bad nonce: expected 1, got 2');
  });

  it('refuses duplicates within a burst before any check, a forged copy included', () => {
    const { q, signatures } = queue();
    const t = transfer('alice', 0);
    assert.equal(q.offer(t, hashOf(t), 300, state, 'first').ok, true);
    const again = q.offer(t, hashOf(t), 300, state, 'again');
    assert.deepEqual(again, {
      ok: false,
      code: 'DUPLICATE',
      message: `transaction ${hashOf(t)} is already pending`,
    });
    assert.equal(q.offer(forge(t), hashOf(t), 300, state, 'forged').ok, false);
    const other = transfer('alice', 0, 2n);
    const clash = q.offer(other, hashOf(other), 300, state, 'clash');
    assert.match(
      clash.ok ? '' : clash.message,
      /^bad nonce: nonce 0 is already used by pending transaction [0-9a-f]{64}$/,
    );
    assert.deepEqual(results(q.flush(state, 64)), ['first:ok']);
    assert.equal(signatures.checks, 1);
    assert.equal(
      q.offer(t, hashOf(t), 300, state, 'later').ok,
      false,
      'and once admitted, still a duplicate',
    );
  });

  it('counts waiting transactions against every bound', () => {
    const count = queue({ maxTxs: 2 }).q;
    for (const t of [transfer('alice', 0), transfer('bob', 0)])
      assert.equal(count.offer(t, hashOf(t), 300, state, '').ok, true);
    const third = transfer('carol', 0);
    const full = count.offer(third, hashOf(third), 300, state, '');
    assert.deepEqual(full, {
      ok: false,
      code: 'MEMPOOL_FULL',
      message: 'mempool is full (2 transactions): try again later',
    });

    const bytes = queue({ maxBytes: 1000 }).q;
    const a = transfer('alice', 0);
    assert.equal(bytes.offer(a, hashOf(a), 900, state, '').ok, true);
    const b = transfer('bob', 0);
    const r = bytes.offer(b, hashOf(b), 200, state, '');
    assert.equal(r.ok ? '' : r.code, 'MEMPOOL_FULL');

    const sender = queue({ maxPerSender: 2 }).q;
    for (let n = 0; n < 2; n++)
      sender.offer(transfer('alice', n), hashOf(transfer('alice', n)), 300, state, '');
    const third2 = transfer('alice', 2);
    assert.deepEqual(sender.offer(third2, hashOf(third2), 300, state, ''), {
      ok: false,
      code: 'SENDER_QUEUE_FULL',
      message: 'sender already has 2 pending transactions (the most allowed)',
    });
  });

  it('checks the balance against the sender’s waiting transactions, and checks again at the flush', () => {
    const { q } = queue();
    const big = transfer('alice', 0, coins(60));
    assert.equal(q.offer(big, hashOf(big), 300, state, 'big').ok, true);
    const more = transfer('alice', 1, coins(60));
    const r = q.offer(more, hashOf(more), 300, state, 'more');
    assert.equal(r.ok ? '' : r.code, 'INSUFFICIENT_BALANCE');
    // The state changed between the precheck and the flush (a block spent alice's coins).
    const poorer = genesisState({ accounts: { alice: coins(10), bob: coins(100), carol: coins(100) } });
    const flushed = q.flush(poorer, 64);
    const again = flushed[0]!.result;
    assert.equal(again.ok ? '' : again.code, 'INSUFFICIENT_BALANCE');
  });

  it('flushes at most `max` at a time, the rest staying in order', () => {
    const { q } = queue();
    for (let n = 0; n < 5; n++)
      q.offer(transfer('alice', n), hashOf(transfer('alice', n)), 300, state, `a${n}`);
    assert.deepEqual(results(q.flush(state, 2)), ['a0:ok', 'a1:ok']);
    assert.equal(q.count, 3);
    assert.deepEqual(results(q.flush(state, 2)), ['a2:ok', 'a3:ok']);
    assert.deepEqual(results(q.flush(state, 2)), ['a4:ok']);
  });
});

describe('admission scheduling', () => {
  function pipeline(maxBatch = 64) {
    const signatures = new SignatureCache();
    const mempool = new Mempool(DEFAULT_MEMPOOL_OPTIONS, signatures, () => 0);
    const turns: (() => void)[] = [];
    const gossiped: Tx[][] = [];
    const admission = new Admission({
      queue: new AdmissionQueue<Waiter>(mempool, signatures),
      mempool,
      metrics: createMetrics(),
      state: () => state,
      onAdmittedFromRpc: (txs) => gossiped.push([...txs]),
      maxBatch,
      schedule: (work) => turns.push(work),
    });
    return { admission, turns, gossiped, mempool, signatures };
  }

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
        ['received', 'received', 'received', 'received', 'DUPLICATE', 'INVALID_SIGNATURE'],
      );
      assert.equal(await checksMetric(h), 5, 'four valid and one forged, the duplicate not checked');
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

/** The mempool's bounds, ordering and the one-check-per-signature rule, on a real chain state. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, type Tx, txHash } from '../../../src/chain/index.js';
import { DEFAULT_MEMPOOL_OPTIONS, Mempool } from '../../../src/mempool/mempool.js';
import { SignatureCache } from '../../../src/mempool/signatureCache.js';
import { genesisState, key, tx } from '../../fixtures.js';
import { flipV } from '../../forgeries.js';

const state = genesisState({ accounts: { alice: coins(100), bob: coins(100), carol: coins(100) } });
const hashOf = (t: Tx) => txHash(t, state.params.chainId);
const transfer = (from: string, nonce: number, amount = 1n) =>
  tx(state, from, 'TRANSFER', { to: key('dave').account, amount, nonce });

function pool(opts: Partial<typeof DEFAULT_MEMPOOL_OPTIONS> = {}, clock = { now: 0 }) {
  const signatures = new SignatureCache();
  return {
    mempool: new Mempool({ ...DEFAULT_MEMPOOL_OPTIONS, ...opts }, signatures, () => clock.now),
    signatures,
    clock,
  };
}

describe('mempool', () => {
  it('refuses past its transaction count with MEMPOOL_FULL, and never grows', () => {
    const { mempool } = pool({ maxTxs: 2 });
    for (const t of [transfer('alice', 0), transfer('bob', 0)])
      assert.deepEqual(mempool.admit(t, hashOf(t), 300, state), { ok: true });
    const third = transfer('carol', 0);
    const r = mempool.admit(third, hashOf(third), 300, state);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'MEMPOOL_FULL');
      assert.match(r.message, /mempool is full \(2 transactions\)/);
    }
    assert.equal(mempool.size, 2);
  });

  it('refuses past its byte size', () => {
    const { mempool } = pool({ maxBytes: 1000 });
    const a = transfer('alice', 0);
    assert.equal(mempool.admit(a, hashOf(a), 900, state).ok, true);
    const b = transfer('bob', 0);
    const r = mempool.admit(b, hashOf(b), 200, state);
    assert.equal(r.ok ? '' : r.code, 'MEMPOOL_FULL');
    assert.equal(mempool.byteSize, 900);
  });

  it('lets a sender queue consecutive nonces up to its bound, and no gaps', () => {
    const { mempool } = pool({ maxPerSender: 3 });
    for (let n = 0; n < 3; n++)
      assert.equal(mempool.admit(transfer('alice', n), hashOf(transfer('alice', n)), 300, state).ok, true);
    const fourth = transfer('alice', 3);
    const full = mempool.admit(fourth, hashOf(fourth), 300, state);
    assert.equal(full.ok ? '' : full.code, 'SENDER_QUEUE_FULL');
    const gap = transfer('bob', 2);
    const r = mempool.admit(gap, hashOf(gap), 300, state);
    assert.equal(r.ok ? '' : r.message, 'bad nonce: expected 0, got 2');
  });

  it('checks the balance against what the sender already queued', () => {
    const { mempool } = pool();
    const big = transfer('alice', 0, coins(60));
    assert.equal(mempool.admit(big, hashOf(big), 300, state).ok, true);
    const more = transfer('alice', 1, coins(60));
    const r = mempool.admit(more, hashOf(more), 300, state);
    assert.equal(r.ok ? '' : r.code, 'INSUFFICIENT_BALANCE');
  });

  it('refuses a duplicate and a second transaction with a pending nonce', () => {
    const { mempool } = pool();
    const t = transfer('alice', 0);
    mempool.admit(t, hashOf(t), 300, state);
    const dup = mempool.admit(t, hashOf(t), 300, state);
    assert.equal(dup.ok ? '' : dup.code, 'DUPLICATE');
    const other = transfer('alice', 0, 2n);
    const clash = mempool.admit(other, hashOf(other), 300, state);
    assert.match(
      clash.ok ? '' : clash.message,
      /nonce 0 is already used by pending transaction [0-9a-f]{64}/,
    );
  });

  it('selects each sender in nonce order, oldest sender first, within the gas limit', () => {
    const { mempool, clock } = pool();
    const order = [transfer('bob', 0), transfer('alice', 0), transfer('bob', 1), transfer('alice', 1)];
    for (const t of order) {
      clock.now += 1;
      mempool.admit(t, hashOf(t), 300, state);
    }
    const picked = mempool
      .select(state, 10_000_000)
      .map((t) => `${t.from === key('bob').account ? 'bob' : 'alice'}${t.nonce}`);
    assert.deepEqual(picked, ['bob0', 'bob1', 'alice0', 'alice1']);
    assert.equal(mempool.select(state, 21_000 * 3).length, 3);
  });

  it('expires transactions older than the TTL', () => {
    const { mempool, clock } = pool({ ttlMs: 1000 });
    const t = transfer('alice', 0);
    mempool.admit(t, hashOf(t), 300, state);
    clock.now = 999;
    assert.equal(mempool.expire().length, 0);
    clock.now = 1000;
    assert.deepEqual(
      mempool.expire().map((e) => e.hash),
      [hashOf(t)],
    );
    assert.equal(mempool.size, 0);
  });
});

describe('signature cache', () => {
  it('verifies each signature once, and never lets a forged copy ride on an earlier check', () => {
    const signatures = new SignatureCache();
    const t = transfer('alice', 0);
    const h = hashOf(t);
    assert.equal(signatures.check(t, h, state.params.chainId), null);
    assert.equal(signatures.check(t, h, state.params.chainId), null);
    assert.equal(signatures.checks, 1, 'the second answer came from memory');
    const forged = flipV(t);
    assert.notEqual(hashOf(forged), h, 'another signature, another hash: the hash covers the signature');
    assert.equal(signatures.check(forged, hashOf(forged), state.params.chainId)?.code, 'INVALID_SIGNATURE');
    assert.equal(signatures.checks, 2);
    assert.equal(signatures.check(forged, hashOf(forged), state.params.chainId)?.code, 'INVALID_SIGNATURE');
    assert.equal(signatures.checks, 3, 'a refusal is not remembered: only what verified is');
  });

  it('stays within its capacity', () => {
    const signatures = new SignatureCache(2);
    const txs = [transfer('alice', 0), transfer('alice', 1), transfer('alice', 2)];
    for (const t of txs) signatures.check(t, hashOf(t), state.params.chainId);
    signatures.check(txs[0]!, hashOf(txs[0]!), state.params.chainId);
    assert.equal(signatures.checks, 4, 'the oldest was forgotten and checked again');
  });
});

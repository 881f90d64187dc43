/**
 * The memo of a transaction's encodings (tx/signing.ts): a decoded transaction (txFromJson) is
 * frozen, and its signed bytes and tx_hash are computed once. What must hold, as an attacker
 * would try it: the memo's answers are those of encoding the transaction again, for any field and
 * any chain id; a forged twin (same fields, another signature) decoded after the genuine one has
 * its own hash and is refused by the checks; nothing that can still change is remembered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  checkTxSignature,
  coins,
  type Tx,
  txFromJson,
  txHash,
  txSignedBytes,
  txSigningBytes,
  txSigningDigest,
  txToJson,
} from '../../../../src/chain/index.js';
import { sha256 } from '../../../../src/crypto/hash.js';
import { bytesToHex, concatBytes, hexToBytes } from '../../../../src/crypto/hex.js';
import { genesisState, key, tx } from '../../../fixtures.js';
import { signatureTwins } from '../../../forgeries.js';

const state = genesisState({ accounts: { alice: coins(100), bob: coins(100) } });
const chainId = state.params.chainId;

/** The transaction as the wire gives it to a node: decoded from its JSON, frozen. */
function decoded(t: Tx): Tx {
  const r = txFromJson(JSON.parse(JSON.stringify(txToJson(t))));
  assert.ok(r.ok, r.ok ? '' : r.reason);
  return r.tx;
}

/** The encodings computed afresh, from a copy the memo has never seen (and cannot keep). */
function fresh(t: Tx, chain: string) {
  const copy: Tx = { ...t, payload: { ...t.payload } };
  const signing = txSigningBytes(copy, chain);
  const signed = concatBytes(signing, hexToBytes(t.signature));
  return { signed, hash: bytesToHex(sha256(signed)), digest: sha256(signing) };
}

describe('transaction encodings, remembered per decoded transaction', () => {
  it('a decoded transaction is frozen, payload included: writing to it throws', () => {
    const t = decoded(
      tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 5n, payload: { memo: 'm' } }),
    );
    assert.ok(Object.isFrozen(t) && Object.isFrozen(t.payload));
    assert.throws(() => {
      (t as { amount: bigint }).amount = 6n;
    }, TypeError);
    assert.throws(() => {
      (t.payload as { memo?: string }).memo = 'other';
    }, TypeError);
  });

  it('gives what encoding afresh gives, asked once or many times, in any order, for any transfer', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
        fc.nat(),
        fc.string({ maxLength: 40 }),
        fc.boolean(),
        (amount, nonce, memo, hashFirst) => {
          const t = decoded(
            tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount, nonce, payload: { memo } }),
          );
          const want = fresh(t, chainId);
          if (hashFirst) assert.equal(txHash(t, chainId), want.hash);
          assert.deepEqual(txSignedBytes(t, chainId), want.signed);
          assert.deepEqual(txSigningDigest(t, chainId), want.digest);
          assert.equal(txHash(t, chainId), want.hash);
          assert.equal(txHash(t, chainId), want.hash);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('the same object under another chain id is encoded for that chain, and back again', () => {
    const t = decoded(tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n }));
    const here = txHash(t, chainId);
    const there = txHash(t, 'another-chain');
    assert.notEqual(here, there);
    assert.equal(there, fresh(t, 'another-chain').hash);
    assert.deepEqual(txSigningDigest(t, 'another-chain'), fresh(t, 'another-chain').digest);
    assert.equal(txHash(t, chainId), here);
    assert.equal(here, fresh(t, chainId).hash);
  });

  it('a forged twin decoded after the genuine one has its own hash and is refused', () => {
    const genuine = decoded(tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 7n }));
    const genuineHash = txHash(genuine, chainId);
    assert.equal(checkTxSignature(genuine, chainId), null);
    for (const [name, twin] of signatureTwins(genuine)) {
      const t = decoded(twin);
      assert.notEqual(txHash(t, chainId), genuineHash, `${name}: another hash`);
      assert.equal(txHash(t, chainId), fresh(t, chainId).hash, `${name}: its own bytes`);
      assert.notEqual(checkTxSignature(t, chainId), null, `${name}: refused`);
    }
    // A copy with other fields and the genuine signature: the signature does not cover it.
    const other = decoded({ ...genuine, amount: 8n });
    assert.notEqual(txHash(other, chainId), genuineHash);
    assert.notEqual(checkTxSignature(other, chainId), null);
    assert.equal(txHash(genuine, chainId), genuineHash);
  });

  it('the signing digest of a transaction not yet hashed does not read its signature', () => {
    const t = Object.freeze({
      ...tx(state, 'alice', 'TRANSFER', { to: key('bob').account }),
      signature: 'zz',
    });
    Object.freeze(t.payload);
    assert.deepEqual(txSigningDigest(t, chainId), sha256(txSigningBytes(t, chainId)));
    assert.notEqual(checkTxSignature(t, chainId), null);
  });

  it('a transaction that can still change is not remembered', () => {
    const t = { ...tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n }) };
    const before = txHash(t, chainId);
    (t as { amount: bigint }).amount = 2n;
    assert.notEqual(txHash(t, chainId), before);
    assert.equal(txHash(t, chainId), fresh(t, chainId).hash);
    // Frozen, but its payload is not: not remembered either.
    const p = Object.freeze({ ...t, payload: { memo: 'a' } as { memo: string } });
    const withA = txHash(p, chainId);
    p.payload.memo = 'b';
    assert.notEqual(txHash(p, chainId), withA);
  });
});

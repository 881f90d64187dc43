/**
 * Transaction signatures (tx/signing.ts): the signature failures, and why a transaction's
 * identity cannot be forged (docs/PROTOCOL.md, "Signing bytes, digest, signature, hash"): tx_hash covers the signature, so a copy with any other signature has
 * another hash; and nobody without the key makes a second valid signature of the same bytes:
 * every twin derivable from the genuine signature (v flipped, the high-s twin, v + 2 for
 * R.x = r + n, r or s out of range, any byte changed) is refused by the one-at-a-time check, by
 * the batch check and by the signature cache alike. Only the key holder can sign the same bytes
 * again, and that makes another transaction.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BlockError,
  checkTxSignature,
  coins,
  signTx,
  type Tx,
  type TxErrorCode,
  txHash,
  txSigningBytes,
  txSigningDigest,
} from '../../../../src/chain/index.js';
import { verifyDigestBatch } from '../../../../src/crypto/batchVerify.js';
import { SignatureCache } from '../../../../src/mempool/signatureCache.js';
import { GENESIS_TIME, genesisState, key, tx } from '../../../fixtures.js';
import { resign, signatureTwins } from '../../../forgeries.js';
import { acct, build, chainOf } from '../../../world.js';

const state = genesisState({ accounts: { alice: coins(100) } });
const chainId = state.params.chainId;
const hashOf = (t: Tx) => txHash(t, chainId);

/** The three checks a node makes, each asked afresh: one at a time, in a batch, through the cache. */
function refusedEverywhere(t: Tx, genuine: Tx): void {
  assert.notEqual(checkTxSignature(t, chainId), null, 'checkTxSignature refuses it');
  const [alone, beside] = verifyDigestBatch(
    [t, genuine].map((x) => ({
      digest: txSigningDigest(x, chainId),
      signatureHex: x.signature,
      publicKeyHex: x.pubKey,
    })),
  );
  assert.equal(alone, false, 'the batch check refuses it');
  assert.equal(beside, true, 'and still accepts the genuine one beside it');
  const cache = new SignatureCache();
  assert.equal(cache.check(genuine, hashOf(genuine), chainId), null);
  assert.notEqual(
    cache.check(t, hashOf(t), chainId),
    null,
    'the cache does not let it ride on the genuine check',
  );
}

describe('transaction identity', () => {
  it('every twin of a genuine signature is refused everywhere and has a hash of its own', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.nat({ max: 1_000 }),
        fc.bigInt({ min: 1n, max: coins(50) }),
        (label, nonce, amount) => {
          const genuine = tx(state, `sender ${label}`, 'TRANSFER', { to: key('bob').account, amount, nonce });
          assert.equal(checkTxSignature(genuine, chainId), null);
          const hashes = new Set([hashOf(genuine)]);
          for (const [name, twin] of signatureTwins(genuine)) {
            assert.deepEqual(
              txSigningDigest(twin, chainId),
              txSigningDigest(genuine, chainId),
              `${name}: the same signed bytes`,
            );
            refusedEverywhere(twin, genuine);
            assert.ok(!hashes.has(hashOf(twin)), `${name}: a hash no other twin has`);
            hashes.add(hashOf(twin));
          }
        },
      ),
      { numRuns: 8 },
    );
  });

  it('any change to any byte of the signature is refused and changes the hash', () => {
    const genuine = tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n });
    fc.assert(
      fc.property(fc.nat({ max: 64 }), fc.integer({ min: 1, max: 255 }), (at, mask) => {
        const bytes = Buffer.from(genuine.signature, 'hex');
        bytes[at] = bytes[at]! ^ mask;
        const changed = { ...genuine, signature: bytes.toString('hex') };
        refusedEverywhere(changed, genuine);
        assert.notEqual(hashOf(changed), hashOf(genuine));
      }),
      { numRuns: 64 },
    );
  });

  it('another key cannot sign for the sender, whether it names its own key or the sender’s', () => {
    const genuine = tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n });
    const mallory = tx(state, 'mallory', 'TRANSFER', { to: key('bob').account, amount: 1n });
    const ownKey = { ...mallory, from: genuine.from };
    assert.equal(checkTxSignature(ownKey, chainId)?.code, 'PUBKEY_MISMATCH');
    const stolenKey = { ...mallory, from: genuine.from, pubKey: genuine.pubKey };
    assert.equal(checkTxSignature(stolenKey, chainId)?.code, 'INVALID_SIGNATURE');
    assert.notEqual(hashOf(stolenKey), hashOf(genuine));
  });

  it('the key holder can sign the same bytes again: a valid transaction with another hash', () => {
    const genuine = tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n });
    const again = resign(genuine, key('alice').privateKey, chainId);
    assert.notEqual(again.signature, genuine.signature);
    assert.equal(checkTxSignature(again, chainId), null);
    assert.notEqual(hashOf(again), hashOf(genuine));
  });
});

// ---------------------------------------------------------------------------------------------
// Signature failures (checkTxSignature), checked once per transaction before execution.

describe('signature failures', () => {
  const state = build({ accounts: { alice: coins(1000) } });
  const good = tx(state, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(5) });
  const testnetSigned = signTx(
    {
      type: 'TRANSFER',
      from: acct('alice'),
      to: acct('bob'),
      amount: coins(5),
      fee: 21_000_000n,
      nonce: 0,
      gasPrice: 0,
      gasLimit: 0,
      timestamp: GENESIS_TIME,
      payload: {},
    },
    key('alice').privateKey,
    'chain-testnet-1',
  );

  const rows: readonly {
    name: string;
    tx: Tx;
    chainId: string;
    code: TxErrorCode | null;
    message?: string;
  }[] = [
    { name: 'untouched transaction on its own chain', tx: good, chainId: 'chain-devnet-1', code: null },
    {
      name: 'amount tampered with after signing (5 coins -> 5 coins + 1 wei)',
      tx: { ...good, amount: coins(5) + 1n },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'not made by pub_key over this transaction for chain chain-devnet-1',
    },
    {
      name: 'fee tampered with after signing',
      tx: { ...good, fee: good.fee + 1n },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'invalid signature',
    },
    {
      name: 'recipient swapped after signing',
      tx: { ...good, to: acct('mallory') },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'invalid signature',
    },
    {
      name: 'from_address is bob while pub_key is alice’s',
      tx: { ...good, from: acct('bob') },
      chainId: 'chain-devnet-1',
      code: 'PUBKEY_MISMATCH',
      message: `from_address ${acct('bob')} is not the address of pub_key`,
    },
    {
      name: 'from_address and pub_key both bob’s, signature alice’s',
      tx: { ...good, from: acct('bob'), pubKey: key('bob').pubKey },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'invalid signature',
    },
    {
      name: 'signed for chain-testnet-1, checked on chain-devnet-1',
      tx: testnetSigned,
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'for chain chain-devnet-1',
    },
    {
      name: 'signed for chain-testnet-1, checked on chain-testnet-1',
      tx: testnetSigned,
      chainId: 'chain-testnet-1',
      code: null,
    },
  ];

  for (const row of rows) {
    it(`${row.code ?? 'valid'}: ${row.name}`, () => {
      const failure = checkTxSignature(row.tx, row.chainId);
      if (row.code === null) assert.equal(failure, null);
      else {
        assert.equal(failure?.code, row.code);
        assert.ok(failure?.message.includes(row.message ?? ''), failure?.message);
      }
    });
  }

  it('a block carrying a tampered or foreign-chain transaction is refused whole (BAD_TX_SIGNATURE)', () => {
    for (const bad of [{ ...good, amount: coins(5) + 1n }, testnetSigned, { ...good, from: acct('bob') }]) {
      const chain = chainOf({ accounts: { alice: coins(1000) } });
      const before = chain.state;
      assert.throws(
        () => chain.produce([bad]),
        (e: unknown) => e instanceof BlockError && e.code === 'BAD_TX_SIGNATURE',
      );
      assert.equal(chain.state, before);
    }
  });
});

describe('the signing bytes of the upgrade plan transactions (extension)', () => {
  it('are the common layout, then str(target_version) u64(upgrade_height); the plan is signed, and the eight types carry nothing more', () => {
    const payload = { targetVersion: '1.1.0', upgradeHeight: 300 };
    const plan = tx(state, 'alice', 'UPGRADE_PLAN', { payload });
    const bytes = txSigningBytes(plan, chainId);
    const tail = Uint8Array.from([
      ...[0, 0, 0, 5],
      ...new TextEncoder().encode('1.1.0'),
      ...[0, 0, 0, 0, 0, 0, 1, 44],
    ]);
    assert.deepEqual(bytes.slice(bytes.length - tail.length), tail);
    // Another height is another signed message: the signature no longer fits.
    const moved = { ...plan, payload: { ...payload, upgradeHeight: 301 } };
    assert.equal(checkTxSignature(moved, chainId)?.code, 'INVALID_SIGNATURE');
    assert.equal(checkTxSignature(plan, chainId), null);
    // UPGRADE_CANCEL of the same plan: another type code, another message.
    const cancel = tx(state, 'alice', 'UPGRADE_CANCEL', { payload });
    assert.notEqual(txHash(cancel, chainId), txHash(plan, chainId));
    const transfer = tx(state, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n });
    const t = txSigningBytes(transfer, chainId);
    assert.equal(t[t.length - 1], 0, 'a TRANSFER ends with its last opt payload field, absent');
  });
});

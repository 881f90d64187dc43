/**
 * The test vectors of docs/PROTOCOL.md, checked against the code, and the signatures checked
 * again with Node's OpenSSL ECDSA: an implementation that shares nothing with @noble.
 */
import assert from 'node:assert/strict';
import { createHash, createPublicKey, ECDH, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  BURN_ADDRESS,
  checkTxSignature,
  signTx,
  TREASURY_ADDRESS,
  type Tx,
  txFromJson,
  txHash,
  txSigningBytes,
  txSigningDigest,
} from '../../../src/chain/index.js';
import { accountAddressOf, encodeAddress, validatorAddressOf } from '../../../src/crypto/address.js';
import { bytesToHex, hexToBytes } from '../../../src/crypto/hex.js';
import { publicKeyHexOf } from '../../../src/crypto/keys.js';

interface Vectors {
  addresses: { private_key: string; pub_key: string; account: string; validator: string }[];
  reserved_addresses: { name: string; preimage?: string; address_bytes: string; account: string }[];
  transactions: {
    name: string;
    chain_id: string;
    private_key: string;
    tx: unknown;
    signing_bytes: string;
    signing_digest: string;
    tx_hash: string;
  }[];
  forged_twins: {
    name: string;
    twin_of: string;
    chain_id: string;
    tx: unknown;
    signing_digest: string;
    tx_hash: string;
    error: string;
  }[];
}

function loadVectors(): Vectors {
  const doc = readFileSync(new URL('../../../../../docs/PROTOCOL.md', import.meta.url), 'utf8');
  const match = /```json vectors\n([\s\S]*?)\n```/.exec(doc);
  assert.ok(match, 'docs/PROTOCOL.md has a ```json vectors block');
  return JSON.parse(match[1]!) as Vectors;
}

/** DER of an ECDSA signature from r and s (each 32 bytes), for OpenSSL. */
function derSignature(r: Uint8Array, s: Uint8Array): Buffer {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    const trimmed = b.subarray(i);
    const body = trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : Buffer.from(trimmed);
    return Buffer.concat([Buffer.from([0x02, body.length]), body]);
  };
  const seq = Buffer.concat([int(r), int(s)]);
  return Buffer.concat([Buffer.from([0x30, seq.length]), seq]);
}

function opensslVerify(message: Uint8Array, signatureHex: string, pubKeyHex: string): boolean {
  const sig = hexToBytes(signatureHex);
  const uncompressed = Buffer.from(
    ECDH.convertKey(pubKeyHex, 'secp256k1', 'hex', 'hex', 'uncompressed') as string,
    'hex',
  );
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      x: uncompressed.subarray(1, 33).toString('base64url'),
      y: uncompressed.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  // OpenSSL hashes `message` with SHA-256 itself: H(signing_bytes) is the digest that was signed.
  return verify('sha256', message, key, derSignature(sig.subarray(0, 32), sig.subarray(32, 64)));
}

const vectors = loadVectors();

describe('docs/PROTOCOL.md test vectors', () => {
  for (const a of vectors.addresses) {
    it(`derives the key and both addresses of private key ${a.private_key.slice(-2)}`, () => {
      const pub = publicKeyHexOf(hexToBytes(a.private_key));
      assert.equal(pub, a.pub_key);
      assert.equal(accountAddressOf(pub), a.account);
      assert.equal(validatorAddressOf(pub), a.validator);
    });
  }

  /** Parses a vector's JSON form, failing the test when it is malformed. */
  const parse = (json: unknown): Tx => {
    const parsed = txFromJson(json);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
    return parsed.tx;
  };
  /** SHA-256 by OpenSSL, to check the code's hashes with an implementation it does not share. */
  const openSslSha256 = (...parts: string[]) =>
    createHash('sha256')
      .update(Buffer.from(parts.join(''), 'hex'))
      .digest('hex');

  for (const v of vectors.transactions) {
    it(`${v.name}: signing bytes, digest, hash and signature`, () => {
      const tx = parse(v.tx);
      const signing = txSigningBytes(tx, v.chain_id);
      assert.equal(bytesToHex(signing), v.signing_bytes);
      assert.equal(bytesToHex(txSigningDigest(tx, v.chain_id)), v.signing_digest);
      assert.equal(openSslSha256(v.signing_bytes), v.signing_digest);
      assert.equal(txHash(tx, v.chain_id), v.tx_hash);
      assert.equal(
        openSslSha256(v.signing_bytes, tx.signature),
        v.tx_hash,
        'tx_hash = H(signing_bytes || signature)',
      );
      assert.equal(checkTxSignature(tx, v.chain_id), null);
      const { signature, pubKey: _p, ...unsigned } = tx;
      assert.equal(
        signTx(unsigned, hexToBytes(v.private_key), v.chain_id).signature,
        signature,
        'RFC 6979 is deterministic',
      );
      assert.ok(opensslVerify(signing, signature, tx.pubKey), 'OpenSSL accepts the signature');
      assert.notEqual(checkTxSignature(tx, 'chain-testnet-1'), null, 'the same bytes fail on another chain');
    });
  }

  it('the reserved addresses: burn (20 zero bytes) and treasury (SHA-256 of its preimage, cut to 20)', () => {
    const [burn, treasury] = vectors.reserved_addresses;
    assert.equal(burn?.name, 'burn');
    assert.equal(treasury?.name, 'treasury');
    assert.equal(burn.address_bytes, '00'.repeat(20));
    // Node's own SHA-256 (OpenSSL), not the code's.
    assert.equal(
      treasury.address_bytes,
      createHash('sha256').update(treasury.preimage!, 'utf8').digest('hex').slice(0, 40),
    );
    for (const r of vectors.reserved_addresses)
      assert.equal(encodeAddress('coin', hexToBytes(r.address_bytes, 20)), r.account, r.name);
    assert.equal(BURN_ADDRESS, burn.account);
    assert.equal(TREASURY_ADDRESS, treasury.account);
  });

  it('has a forged twin vector', () => assert.ok(vectors.forged_twins.length > 0));
  for (const f of vectors.forged_twins) {
    it(`${f.name}: the original's digest, a hash of its own, refused`, () => {
      const original = vectors.transactions.find((v) => v.name === f.twin_of);
      assert.ok(original, `twin_of names a vector: ${f.twin_of}`);
      const twin = parse(f.tx);
      const genuine = parse(original.tx);
      assert.deepEqual(
        { ...twin, signature: '' },
        { ...genuine, signature: '' },
        'only the signature differs',
      );
      assert.equal(bytesToHex(txSigningDigest(twin, f.chain_id)), f.signing_digest);
      assert.equal(f.signing_digest, original.signing_digest, 'the same signed bytes');
      assert.equal(txHash(twin, f.chain_id), f.tx_hash);
      assert.equal(openSslSha256(original.signing_bytes, twin.signature), f.tx_hash);
      assert.notEqual(f.tx_hash, original.tx_hash, 'another transaction: another hash');
      assert.equal(checkTxSignature(twin, f.chain_id)?.code, f.error);
      // v flipped keeps (r, s): plain ECDSA (OpenSSL, which has no recovery byte) accepts it;
      // the protocol refuses it because v must recover pub_key.
      assert.ok(opensslVerify(hexToBytes(original.signing_bytes), twin.signature, twin.pubKey));
    });
  }
});

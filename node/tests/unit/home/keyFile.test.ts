import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { accountAddressOf, validatorAddressOf } from '../../../src/crypto/address.js';
import { bytesToHex, hexToBytes } from '../../../src/crypto/hex.js';
import { isValidPrivateKey, privateKeyFromSeed, publicKeyHexOf } from '../../../src/crypto/keys.js';
import { keyFileOf, nativePublicKeyHexOf } from '../../../src/home/keyFile.js';

/** secp256k1's group order n. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const keyOf = (x: bigint) => hexToBytes(x.toString(16).padStart(64, '0'), 32);

describe('key files', () => {
  it('derive the same public key by OpenSSL as the chain does by noble, for random and edge keys', () => {
    const keys: Uint8Array[] = [keyOf(1n), keyOf(2n), keyOf(N - 1n), keyOf(N - 2n), keyOf(N >> 1n)];
    while (keys.length < 300) {
      const k = randomBytes(32);
      if (isValidPrivateKey(k)) keys.push(k);
    }
    for (const k of keys)
      assert.equal(nativePublicKeyHexOf(k), publicKeyHexOf(k), `private key ${bytesToHex(k)}`);
  });

  it("hold a devnet key's public key and both addresses as the chain derives them", () => {
    const k = privateKeyFromSeed(new TextEncoder().encode('devnet'), 'validator-0');
    const pub = publicKeyHexOf(k);
    assert.deepEqual(keyFileOf(k), {
      private_key: bytesToHex(k),
      pub_key: pub,
      address: accountAddressOf(pub),
      validator_address: validatorAddressOf(pub),
    });
  });
});

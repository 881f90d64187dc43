/**
 * Key files: JSON with the private key (hex) and, for people, the public key and both addresses.
 * The public key written is derived by OpenSSL (node:crypto's ECDH on secp256k1), the same
 * point as the chain's publicKeyOf: `devnet up` writes a key file for every validator and account,
 * and noble's derivation builds its table of G first (70–120 ms of the CLI's start, before any
 * node can be spawned; docs/BENCHMARKS.md, "devnet up: where the time goes").
 */
import { createECDH } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { accountAddressOf, validatorAddressOf } from '../crypto/address.js';
import { bytesToHex, hexToBytes, isHex } from '../crypto/hex.js';
import { isValidPrivateKey } from '../crypto/keys.js';

export interface KeyFile {
  private_key: string;
  pub_key: string;
  address: string;
  validator_address: string;
}

/** The compressed public key (hex) of a valid private key, by OpenSSL. */
export function nativePublicKeyHexOf(privateKey: Uint8Array): string {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return ecdh.getPublicKey('hex', 'compressed');
}

export function keyFileOf(privateKey: Uint8Array): KeyFile {
  const pub = nativePublicKeyHexOf(privateKey);
  return {
    private_key: bytesToHex(privateKey),
    pub_key: pub,
    address: accountAddressOf(pub),
    validator_address: validatorAddressOf(pub),
  };
}

export async function writeKeyFile(path: string, privateKey: Uint8Array): Promise<KeyFile> {
  const content = keyFileOf(privateKey);
  await writeFile(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  return content;
}

export async function readKeyFile(path: string): Promise<Uint8Array> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(
      `cannot read key file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`key file ${path} is not JSON`);
  }
  const hex = (parsed as { private_key?: unknown }).private_key;
  if (typeof hex !== 'string' || !isHex(hex, 32) || !isValidPrivateKey(hexToBytes(hex)))
    throw new Error(`key file ${path} has no valid private_key (64 lowercase hex)`);
  return hexToBytes(hex);
}

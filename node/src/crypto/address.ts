/**
 * Addresses: the 20 bytes SHA-256(compressed public key)[0..20], in Bech32 (BIP-173, not bech32m).
 * One key has an account address (`coin1…`) and a validator consensus address (`coinvalcons1…`)
 * over the same 20 bytes (DESIGN decision 5).
 */
import { bech32 } from 'bech32';
import { sha256 } from './hash.js';
import { hexToBytes } from './hex.js';

export const ACCOUNT_PREFIX = 'coin';
export const VALIDATOR_PREFIX = 'coinvalcons';
export type AddressPrefix = typeof ACCOUNT_PREFIX | typeof VALIDATOR_PREFIX;
export const ADDRESS_BYTES = 20;

export function addressBytesOfPublicKey(publicKey: Uint8Array): Uint8Array {
  return sha256(publicKey).slice(0, ADDRESS_BYTES);
}

export function encodeAddress(prefix: AddressPrefix, bytes: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(bytes));
}

export function accountAddressOf(publicKeyHex: string): string {
  return encodeAddress(ACCOUNT_PREFIX, addressBytesOfPublicKey(hexToBytes(publicKeyHex)));
}

export function validatorAddressOf(publicKeyHex: string): string {
  return encodeAddress(VALIDATOR_PREFIX, addressBytesOfPublicKey(hexToBytes(publicKeyHex)));
}

/** Decodes `address` if it is canonical Bech32 (lowercase) of `prefix` with 20 data bytes, else null. */
export function decodeAddress(address: string, prefix: AddressPrefix): Uint8Array | null {
  if (address !== address.toLowerCase()) return null;
  try {
    const decoded = bech32.decode(address, 90);
    if (decoded.prefix !== prefix) return null;
    const bytes = Uint8Array.from(bech32.fromWords(decoded.words));
    return bytes.length === ADDRESS_BYTES ? bytes : null;
  } catch {
    return null;
  }
}

export function isAddress(address: string, prefix: AddressPrefix): boolean {
  return decodeAddress(address, prefix) !== null;
}

/** The other form of the same 20 bytes: `coin1…` <-> `coinvalcons1…`. */
export function convertAddress(address: string, from: AddressPrefix, to: AddressPrefix): string | null {
  const bytes = decodeAddress(address, from);
  return bytes === null ? null : encodeAddress(to, bytes);
}

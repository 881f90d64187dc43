/**
 * The RPC's path parameters, checked where they enter: an account address, a height. A bad one
 * is a 400 with a `detail` saying what was expected.
 */
import { HttpError } from '@chain-devnet/kit/http';
import { ACCOUNT_PREFIX, isAddress } from '../crypto/address.js';

/** Addresses already found valid: a Bech32 checksum per request is the largest cost of /balance. */
const validAddresses = new Set<string>();

export function accountParam(value: string | undefined): string {
  if (value !== undefined && validAddresses.has(value)) return value;
  if (value === undefined || !isAddress(value, ACCOUNT_PREFIX))
    throw new HttpError(400, 'Invalid address: expected a coin1 Bech32 address');
  if (validAddresses.size >= 10_000) validAddresses.clear();
  validAddresses.add(value);
  return value;
}

export function heightParam(value: string | undefined): number {
  if (value === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new HttpError(400, 'Invalid height: expected a non-negative integer');
  return Number(value);
}

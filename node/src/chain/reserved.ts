/**
 * The two reserved account addresses (docs/RULES.md, "Burning and the treasury"). No key is
 * known for either, and no account ever exists at one: a TRANSFER to the burn address credits
 * nobody and adds its amount to total_burned; a TRANSFER to the treasury address adds it to the
 * state's treasury. That is how wei reach those two totals by a transaction (the task market's
 * payment split burns 60% and gives 5% to the treasury). A validator's reward_address and a
 * genesis account may not be one of them, so that no balance ever sits there.
 *
 *   burn address     = bech32("coin", 20 zero bytes)
 *   treasury address = bech32("coin", SHA-256("chain/treasury")[0:20])
 */
import { ACCOUNT_PREFIX, ADDRESS_BYTES, encodeAddress } from '../crypto/address.js';
import { sha256, utf8Bytes } from '../crypto/hash.js';

export const BURN_ADDRESS = encodeAddress(ACCOUNT_PREFIX, new Uint8Array(ADDRESS_BYTES));
export const TREASURY_ADDRESS = encodeAddress(
  ACCOUNT_PREFIX,
  sha256(utf8Bytes('chain/treasury')).slice(0, ADDRESS_BYTES),
);

export function isReservedAddress(address: string): boolean {
  return address === BURN_ADDRESS || address === TREASURY_ADDRESS;
}

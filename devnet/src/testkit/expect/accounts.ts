/** Expectations on an account: its balance (exact or bounded) and nonce, on every named node. */
import { parseAmount } from '@chain-devnet/node/chain';
import type { Within } from '../bounds.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import { holds, untilEveryNode } from './poll.js';

/** Wei as a bigint, or a text: `1.5coin`, `100coins`, `2500wei`, bare wei digits. */
export type Amount = bigint | string;

export function weiOf(a: Amount, what: string): bigint {
  if (typeof a === 'bigint') return a;
  const v = parseAmount(a);
  if (v === null) throw new TestkitUsageError(`${what} must be an amount like 1.5coin or 2500wei, got ${a}`);
  return v;
}

export interface AccountExpectation {
  /** A devnet account name (account-0…), a node name (its key's account) or a coin1 address. */
  readonly account: string;
  readonly balance?: Amount;
  readonly atLeast?: Amount;
  readonly atMost?: Amount;
  readonly nonce?: number;
  readonly nodes?: readonly string[];
  /** Default: 5 blocks. */
  readonly within?: Within;
}

export async function expectAccount(
  net: NetContext,
  e: AccountExpectation,
): Promise<Map<string, { balance: bigint; nonce: number }>> {
  const address = net.accountAddress(e.account);
  const exact = e.balance === undefined ? null : weiOf(e.balance, 'balance');
  const low = e.atLeast === undefined ? null : weiOf(e.atLeast, 'atLeast');
  const high = e.atMost === undefined ? null : weiOf(e.atMost, 'atMost');
  if (exact === null && low === null && high === null && e.nonce === undefined)
    throw new TestkitUsageError('an account expectation needs balance, atLeast, atMost or nonce');
  const parts = [
    exact === null ? null : `balance ${exact} wei`,
    low === null ? null : `balance at least ${low} wei`,
    high === null ? null : `balance at most ${high} wei`,
    e.nonce === undefined ? null : `nonce ${e.nonce}`,
  ].filter((x) => x !== null);
  return untilEveryNode(net, {
    nodes: e.nodes ?? net.names(),
    within: e.within ?? { blocks: 5 },
    expected: `${e.account} with ${parts.join(', ')}`,
    check: async (n) => {
      const { height, value } = await net.chain.consistent(n, () => net.rpc(n).balance(address));
      const balance = BigInt(value.balance);
      const ok =
        (exact === null || balance === exact) &&
        (low === null || balance >= low) &&
        (high === null || balance <= high) &&
        (e.nonce === undefined || value.nonce === e.nonce);
      return ok
        ? holds({ balance, nonce: value.nonce })
        : { ok: false, found: `balance ${balance} wei, nonce ${value.nonce}`, height };
    },
  });
}

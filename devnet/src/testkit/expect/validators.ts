/** Expectations on a validator as every named node lists it: status, jail count, power. */
import type { ValidatorAnswer } from '@chain-devnet/node/client';
import type { Within } from '../bounds.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import { type Amount, weiOf } from './accounts.js';
import { holds, untilEveryNode } from './poll.js';

export const VALIDATOR_STATUSES = ['ACTIVE', 'INACTIVE', 'JAILED', 'EJECTED'] as const;
export type ValidatorStatusName = (typeof VALIDATOR_STATUSES)[number];

export interface ValidatorExpectation {
  /** A node name, a validator's name in /validators, or a coinvalcons1 address. */
  readonly validator: string;
  readonly status?: ValidatorStatusName;
  readonly jailCount?: number;
  readonly power?: Amount;
  readonly nodes?: readonly string[];
  /** Default: 5 blocks. */
  readonly within?: Within;
}

export async function expectValidator(
  net: NetContext,
  e: ValidatorExpectation,
): Promise<Map<string, ValidatorAnswer>> {
  if (e.status !== undefined && !(VALIDATOR_STATUSES as readonly string[]).includes(e.status))
    throw new TestkitUsageError(
      `a validator's status is one of ${VALIDATOR_STATUSES.join(', ')}, got ${e.status}`,
    );
  let address: string | null = null;
  try {
    address = net.validatorAddress(e.validator);
  } catch {
    // a name in /validators (a validator whose node is not the devnet's)
  }
  const power = e.power === undefined ? null : weiOf(e.power, 'power');
  const parts = [
    e.status === undefined ? null : `status ${e.status}`,
    e.jailCount === undefined ? null : `jail_count ${e.jailCount}`,
    power === null ? null : `power ${power} wei`,
  ].filter((x) => x !== null);
  if (parts.length === 0)
    throw new TestkitUsageError('a validator expectation needs status, jailCount or power');
  return untilEveryNode(net, {
    nodes: e.nodes ?? net.names(),
    within: e.within ?? { blocks: 5 },
    expected: `validator ${e.validator} with ${parts.join(', ')}`,
    check: async (n) => {
      const { height, value } = await net.chain.consistent(n, () => net.chain.validators(n));
      const v = value.validators.find((x) => x.address === address || x.name === e.validator);
      if (v === undefined) return { ok: false, found: `no such validator in /validators`, height };
      const ok =
        (e.status === undefined || v.status === e.status) &&
        (e.jailCount === undefined || v.jail_count === e.jailCount) &&
        (power === null || BigInt(v.power) === power);
      return ok
        ? holds(v)
        : {
            ok: false,
            found: `status ${v.status}, jail_count ${v.jail_count}, power ${v.power} wei`,
            height,
          };
    },
  });
}

/**
 * Chain parameters per network, from the specification's table; genesis may override any of them
 * (DESIGN decision 10) so that tests run short epochs and fast blocks. Consensus-relevant values
 * live in the state (and its root), so every node agrees on them and upgrades may change them.
 */
import { coins } from './amounts.js';

export const NETWORK_IDS = ['devnet', 'testnet', 'mainnet'] as const;
export type NetworkId = (typeof NETWORK_IDS)[number];

export interface ChainParams {
  readonly network: NetworkId;
  readonly chainId: string;
  /** Target time between blocks; a node setting, recorded here as the network's default. */
  readonly blockTimeMs: number;
  readonly epochLength: number;
  readonly minStake: bigint;
  /** Uptime below this share of scheduled proposer slots in an epoch gets a validator jailed. */
  readonly minUptimePpm: number;
  readonly unjailFee: bigint;
  readonly maxValidators: number;
  /** Blocks an INACTIVE validator waits after its STAKE before an epoch boundary may activate it. */
  readonly activationDelay: number;
  /** Blocks between UNDELEGATE/UNSTAKE and the automatic return of the amount. */
  readonly unbondingBlocks: number;
  readonly initialBlockReward: bigint;
  readonly halvingInterval: number;
  /** Fixed fee model: a transaction must pay at least baseGas(type) * minGasPrice wei. */
  readonly minGasPrice: bigint;
  readonly blockGasLimit: number;
  /** Slash for the 1st, 2nd and 3rd jailing, in ppm of the validator's stake; the 3rd also ejects. */
  readonly slashPpm: readonly [number, number, number];
  /** Extra share of an UNSTAKE amount burned when the validator is jailed ("costs 10% more"). */
  readonly jailedUnstakePenaltyPpm: number;
  readonly defaultCommissionPpm: number;
  readonly snapshotInterval: number;
  readonly snapshotsKept: number;
}

const COMMON = {
  epochLength: 100,
  minUptimePpm: 750_000,
  activationDelay: 100,
  initialBlockReward: coins(10),
  halvingInterval: 1_000_000,
  minGasPrice: 1000n,
  blockGasLimit: 30_000_000,
  slashPpm: [50_000, 100_000, 1_000_000] as const,
  jailedUnstakePenaltyPpm: 100_000,
  defaultCommissionPpm: 100_000,
  snapshotInterval: 1000,
  snapshotsKept: 10,
} as const;

export const NETWORK_PARAMS: Readonly<Record<NetworkId, ChainParams>> = {
  devnet: {
    ...COMMON,
    network: 'devnet',
    chainId: 'chain-devnet-1',
    blockTimeMs: 10_000,
    minStake: coins(100),
    unjailFee: coins(1000),
    maxValidators: 100,
    unbondingBlocks: 100,
  },
  // The specification gives testnet's block time, minimum stake and 21 validators; the unjail fee
  // is unspecified there, so devnet's is kept.
  testnet: {
    ...COMMON,
    network: 'testnet',
    chainId: 'chain-testnet-1',
    blockTimeMs: 30_000,
    minStake: coins(100_000),
    unjailFee: coins(1000),
    maxValidators: 21,
    unbondingBlocks: 1000,
  },
  // The specification names mainnet and gives no parameters: testnet's stand.
  mainnet: {
    ...COMMON,
    network: 'mainnet',
    chainId: 'chain-mainnet-1',
    blockTimeMs: 30_000,
    minStake: coins(100_000),
    unjailFee: coins(1000),
    maxValidators: 21,
    unbondingBlocks: 1000,
  },
};

/** Problems with a parameter set, each naming the field; empty when the set is usable. */
export function checkParams(p: ChainParams): string[] {
  const problems: string[] = [];
  const positiveInt = (name: string, v: number, max = Number.MAX_SAFE_INTEGER) => {
    if (!Number.isSafeInteger(v) || v < 1 || v > max)
      problems.push(`${name} must be an integer from 1 to ${max}`);
  };
  const ppm = (name: string, v: number) => {
    if (!Number.isSafeInteger(v) || v < 0 || v > 1_000_000) problems.push(`${name} must be from 0 to 1`);
  };
  if (!NETWORK_IDS.includes(p.network)) problems.push(`network must be one of ${NETWORK_IDS.join(', ')}`);
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(p.chainId)) problems.push('chain_id must be 1-63 of [a-z0-9-]');
  positiveInt('block_time_ms', p.blockTimeMs);
  positiveInt('epoch_length', p.epochLength);
  positiveInt('max_validators', p.maxValidators, 10_000);
  positiveInt('halving_interval', p.halvingInterval);
  positiveInt('block_gas_limit', p.blockGasLimit);
  positiveInt('snapshot_interval', p.snapshotInterval);
  positiveInt('snapshots_kept', p.snapshotsKept, 10_000);
  if (!Number.isSafeInteger(p.activationDelay) || p.activationDelay < 0)
    problems.push('activation_delay must be >= 0');
  // At least 1: entries are paid at the start of the block at completion_height, which must come after h.
  if (!Number.isSafeInteger(p.unbondingBlocks) || p.unbondingBlocks < 1)
    problems.push('unbonding_blocks must be >= 1');
  if (p.minStake < 1n) problems.push('min_stake must be positive');
  if (p.unjailFee < 0n) problems.push('unjail_fee must be >= 0');
  if (p.initialBlockReward < 0n) problems.push('initial_block_reward must be >= 0');
  if (p.minGasPrice < 0n) problems.push('min_gas_price must be >= 0');
  ppm('min_uptime', p.minUptimePpm);
  ppm('jailed_unstake_penalty', p.jailedUnstakePenaltyPpm);
  ppm('default_commission_rate', p.defaultCommissionPpm);
  for (const [i, v] of p.slashPpm.entries()) ppm(`slash_fractions[${i}]`, v);
  return problems;
}

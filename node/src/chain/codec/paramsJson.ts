/**
 * ChainParams <-> the `params` object of a genesis file. Wei values are decimal strings,
 * rates are numbers from 0 to 1 with at most six decimals, counts are integers.
 * Unknown or malformed fields are reported by name.
 */
import { parseWei, ppmToRate, rateToPpm } from '../amounts.js';
import type { ChainParams } from '../params.js';

type Kind = 'int' | 'wei' | 'rate';
const FIELDS: ReadonlyArray<readonly [string, keyof ChainParams, Kind]> = [
  ['block_time_ms', 'blockTimeMs', 'int'],
  ['epoch_length', 'epochLength', 'int'],
  ['min_stake', 'minStake', 'wei'],
  ['min_uptime', 'minUptimePpm', 'rate'],
  ['unjail_fee', 'unjailFee', 'wei'],
  ['max_validators', 'maxValidators', 'int'],
  ['activation_delay', 'activationDelay', 'int'],
  ['unbonding_blocks', 'unbondingBlocks', 'int'],
  ['initial_block_reward', 'initialBlockReward', 'wei'],
  ['halving_interval', 'halvingInterval', 'int'],
  ['min_gas_price', 'minGasPrice', 'wei'],
  ['block_gas_limit', 'blockGasLimit', 'int'],
  ['jailed_unstake_penalty', 'jailedUnstakePenaltyPpm', 'rate'],
  ['default_commission_rate', 'defaultCommissionPpm', 'rate'],
  ['snapshot_interval', 'snapshotInterval', 'int'],
  ['snapshots_kept', 'snapshotsKept', 'int'],
];

export function paramsToJson(p: ChainParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [json, key, kind] of FIELDS) {
    const v = p[key];
    out[json] = kind === 'wei' ? (v as bigint).toString() : kind === 'rate' ? ppmToRate(v as number) : v;
  }
  out.slash_fractions = p.slashPpm.map(ppmToRate);
  return out;
}

/** Applies overrides from `json` on top of `base`; returns the params or the problems, each naming its field. */
export function paramsFromJson(base: ChainParams, json: unknown, path = 'params'): ChainParams | string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return [`${path} must be an object`];
  const problems: string[] = [];
  const out: Record<string, unknown> = { ...base };
  const known = new Map(FIELDS.map(([j, k, kind]) => [j, [k, kind] as const]));
  for (const [name, value] of Object.entries(json)) {
    if (name === 'slash_fractions') {
      const list =
        Array.isArray(value) && value.length === 3
          ? value.map((x) => (typeof x === 'number' ? rateToPpm(x) : null))
          : null;
      if (list === null || list.some((x) => x === null || x > 1_000_000))
        problems.push(`${path}.slash_fractions must be three rates from 0 to 1`);
      else out.slashPpm = list as [number, number, number];
      continue;
    }
    const field = known.get(name);
    if (field === undefined) {
      problems.push(`${path}.${name} is not a known parameter`);
      continue;
    }
    const [key, kind] = field;
    if (kind === 'int') {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
        problems.push(`${path}.${name} must be a non-negative integer`);
      else out[key] = value;
    } else if (kind === 'wei') {
      const wei = typeof value === 'string' ? parseWei(value) : null;
      if (wei === null) problems.push(`${path}.${name} must be a decimal string of wei`);
      else out[key] = wei;
    } else {
      const ppm = typeof value === 'number' ? rateToPpm(value) : null;
      if (ppm === null || ppm > 1_000_000)
        problems.push(`${path}.${name} must be a number from 0 to 1 with at most 6 decimals`);
      else out[key] = ppm;
    }
  }
  return problems.length > 0 ? problems : (out as unknown as ChainParams);
}

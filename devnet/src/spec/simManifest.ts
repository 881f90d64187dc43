/**
 * A manifest on the simulation: the fields it reads (validators by count, each maybe Byzantine
 * and in a zone; the zones; the developer accounts; the block time, the epoch length and the
 * genesis params), those it may leave aside (monitoring,
 * the panel, ports, the runtime), and the cluster they give. The scenario files on `--runtime
 * sim` (scenario/simRun.ts) and the testkit's SimTestnet read a manifest through this one table.
 */
import { parseDuration } from '@chain-devnet/kit/values';
import type { ClusterOptions } from '@chain-devnet/node/sim';
import type { ByzantineMode } from '@chain-devnet/node/testnet';
import type { Manifest } from './manifest.js';
import { DEFAULTS } from './networkSpec.js';

/** The manifest's fields the simulation reads or may leave aside (the rest it does not have yet). */
const SIM_MANIFEST_FIELDS = new Set([
  'validators',
  'block_time',
  'monitoring',
  'ui',
  'base_port',
  'runtime',
  'seed',
  'params',
  'epoch_length',
  'zones',
  'developer_accounts',
  'protocol_version',
]);

/** Every field of `m` the simulation does not have yet, named; empty: it runs there. */
export function simManifestProblems(m: Manifest): string[] {
  const problems = Object.keys(m)
    // A part turned off (market: false) is one the simulation does without.
    .filter(
      (k) => !SIM_MANIFEST_FIELDS.has(k) && ![undefined, false].includes(m[k as keyof Manifest] as never),
    )
    .map((k) => `manifest.${k}: not simulated yet`);
  const v = m.validators;
  if (Array.isArray(v))
    v.forEach((entry, i) => {
      const extra = Object.keys(entry).filter((k) => !['name', 'byzantine', 'zone'].includes(k));
      if (extra.length > 0 || (entry.name !== undefined && entry.name !== `validator-${i}`))
        problems.push(
          `manifest.validators[${i}]: only a count of validators, each maybe byzantine and in a zone, is simulated yet (validator-0 …)`,
        );
    });
  return problems;
}

/** The manifest's Byzantine validators (validator-i by their place), each with its mode. */
export function simByzantine(m: Manifest): Record<string, ByzantineMode> {
  const v = m.validators;
  if (!Array.isArray(v)) return {};
  return Object.fromEntries(
    v.flatMap((entry, i) => (entry.byzantine === undefined ? [] : [[`validator-${i}`, entry.byzantine]])),
  );
}

/** The cluster a manifest gives (checked first with simManifestProblems), on `seed`. */
export function simClusterOptions(m: Manifest, seed: string): ClusterOptions {
  const v = m.validators;
  return {
    seed,
    validators: Array.isArray(v) ? v.length : (v ?? 4),
    byzantine: simByzantine(m),
    accounts: m.developer_accounts ?? DEFAULTS.developerAccounts,
    params: { ...m.params, ...(m.epoch_length === undefined ? {} : { epoch_length: m.epoch_length }) },
    ...(m.block_time === undefined ? {} : { blockTimeMs: parseDuration(m.block_time) ?? 1000 }),
    ...(m.protocol_version === undefined ? {} : { protocolVersion: m.protocol_version }),
  };
}

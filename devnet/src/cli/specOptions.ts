/** The options that describe a devnet (up, k8s), and what they become in the manifest's terms. */
import { flag, integer, text, type Values } from '@chain-devnet/kit/cli';
import type { SpecFlags } from '../spec/networkSpec.js';

export const specOptions = {
  validators: integer('number of validators, at most 64 (default 4)', { min: 1, max: 64 }),
  'block-time': text('time between blocks, e.g. 300ms, 2s (default 1s)', { valueName: 'D' }),
  'epoch-length': integer("blocks per epoch (default: the devnet's 100)", { min: 1, max: 1_000_000 }),
  seed: text('every key from S (default "devnet"): same seed, same keys and addresses', { valueName: 'S' }),
  manifest: text('a JSON or YAML topology (devnet/README.md); flags override it', { valueName: 'FILE' }),
  'no-monitoring': flag('no Prometheus, no Grafana'),
};

export function specFlagsOf(v: Values<typeof specOptions>): {
  -readonly [K in keyof SpecFlags]: SpecFlags[K];
} {
  const flags: { -readonly [K in keyof SpecFlags]: SpecFlags[K] } = {};
  if (v.validators !== undefined) flags.validators = v.validators;
  if (v['block-time'] !== undefined) flags.blockTime = v['block-time'];
  if (v['epoch-length'] !== undefined) flags.epochLength = v['epoch-length'];
  if (v.seed !== undefined) flags.seed = v.seed;
  if (v['no-monitoring']) flags.monitoring = false;
  return flags;
}

/** --base-port P of up and compose: node i has RPC P+i and p2p P+1000+i. */
export function basePortOption(description: string) {
  return integer(description, { valueName: 'P', min: 1024, max: 64_000 });
}

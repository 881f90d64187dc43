/**
 * What a file's manifest makes, known before any devnet starts: the node and account names the
 * steps may use, whether the market runs, and the manifest's run-time refusals (a genesis the
 * node refuses, a name used twice), found by building the network spec as `devnet up` does.
 */
import { ACCOUNT_PREFIX, isAddress, isHex, VALIDATOR_PREFIX } from '@chain-devnet/node/crypto';
import type { Manifest } from '../spec/manifest.js';
import { buildNetworkSpec, isServiceAccount } from '../spec/networkSpec.js';
import { hasReference } from './refs.js';

export interface KnownNetwork {
  /** Whether the manifest was fine: names are checked only against a manifest that is. */
  readonly sure: boolean;
  /** The nodes so far (a step's `add` appends). */
  readonly nodes: string[];
  readonly accounts: readonly string[];
  /** The accounts a step may send from: all but the services' (the market's escrow and worker). */
  readonly senders: readonly string[];
  readonly market: boolean;
}

/** The network a checked manifest makes, or the reason `devnet up` would refuse it. */
export function knownNetwork(
  manifest: Manifest,
  sure: boolean,
): { net: KnownNetwork; problem: string | null } {
  const market = manifest.market === true;
  if (!sure) return { net: { sure, nodes: [], accounts: [], senders: [], market }, problem: null };
  const key = JSON.stringify(manifest);
  let built = recent.get(key);
  if (built === undefined) {
    built = build(manifest);
    // A few recent manifests: a run of devnet test over many files with one manifest (and the
    // property test's thousands) derives each network's keys once.
    if (recent.size >= 32) recent.delete(recent.keys().next().value!);
    recent.set(key, built);
  }
  return 'problem' in built
    ? { net: { sure: false, nodes: [], accounts: [], senders: [], market }, problem: built.problem }
    : {
        net: {
          sure,
          nodes: [...built.nodes],
          accounts: built.accounts,
          senders: built.accounts.filter((a) => !isServiceAccount(a)),
          market,
        },
        problem: null,
      };
}

type Built =
  | { readonly nodes: readonly string[]; readonly accounts: readonly string[] }
  | { readonly problem: string };
const recent = new Map<string, Built>();

function build(manifest: Manifest): Built {
  try {
    const spec = buildNetworkSpec({ manifest, genesisTime: 0 });
    return { nodes: spec.nodes.map((n) => n.name), accounts: spec.accounts.map((a) => a.name) };
  } catch (e) {
    return { problem: `manifest: ${(e as Error).message.replace(/\n\s*-\s*/g, ' ')}` };
  }
}

/** A problem when `name` is not one of `kinds` in this network (nothing when names are not sure). */
export function unknownName(
  net: KnownNetwork,
  path: string,
  name: string,
  kinds: readonly ('node' | 'account' | 'sender' | 'key' | 'address' | 'validatorAddress')[],
): string[] {
  // A reference (`${pay.from}`) is known only when the step runs; refs.ts checks it.
  if (!net.sure || hasReference(name)) return [];
  if (kinds.includes('node') && net.nodes.includes(name)) return [];
  if (kinds.includes('account') && net.accounts.includes(name)) return [];
  if (kinds.includes('sender') && net.senders.includes(name)) return [];
  if (kinds.includes('key') && isHex(name, 32)) return [];
  if (kinds.includes('address') && isAddress(name, ACCOUNT_PREFIX)) return [];
  if (kinds.includes('validatorAddress') && isAddress(name, VALIDATOR_PREFIX)) return [];
  if (kinds.length === 1 && kinds[0] === 'node')
    return [`${path}: unknown node "${name}" (nodes: ${net.nodes.join(', ')})`];
  const what = [
    kinds.includes('account') ? `an account (${net.accounts.join(', ')})` : null,
    kinds.includes('sender')
      ? `an account to send from (${net.senders.join(', ')}${net.senders.length < net.accounts.length ? "; the market's own are its service's" : ''})`
      : null,
    kinds.includes('node') ? `a node (${net.nodes.join(', ')})` : null,
    kinds.includes('key') ? 'a 64-hex private key' : null,
    kinds.includes('address') ? 'a coin1… address' : null,
    kinds.includes('validatorAddress') ? 'a coinvalcons1… address' : null,
  ].filter((x) => x !== null);
  return [`${path}: "${name}" is not ${what.join(', or ')}`];
}

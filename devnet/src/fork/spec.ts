/** A forked devnet's spec: the spec its manifest gives, with the genesis made from its source's state. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenesisJson } from '@chain-devnet/node/chain';
import { DevnetError } from '../base/errors.js';
import type { Layout } from '../base/layout.js';
import type { NetworkSpec } from '../spec/networkSpec.js';
import type { DevnetState, ForkRecord } from '../state/devnetState.js';

/** A fork as a devnet is made from it: its record (devnet.json's `fork`) and its genesis. */
export interface Fork {
  readonly record: ForkRecord;
  readonly genesis: GenesisJson;
}

/** A spec with another genesis (a fork's), and that genesis's chain id. */
export function withGenesis(spec: NetworkSpec, genesis: GenesisJson): NetworkSpec {
  return { ...spec, genesis, chainId: genesis.chain_id ?? spec.chainId };
}

/**
 * A forked devnet's spec: its genesis is the one made from the source's state, kept in
 * fork-genesis.json (or, in a devnet restored from an archive, which carries node homes but not
 * that file, the first node's genesis.json: the same document).
 */
export async function forkedSpec(
  layout: Layout,
  state: DevnetState,
  spec: NetworkSpec,
): Promise<NetworkSpec> {
  if (state.fork === undefined) return spec;
  const text =
    (await readFile(layout.forkGenesisFile, 'utf8').catch(() => null)) ??
    (await readFile(join(layout.nodeHome(spec.nodes[0]!.name), 'genesis.json'), 'utf8').catch(() => null));
  if (text === null)
    throw new DevnetError(
      'NO_DEVNET',
      `${layout.forkGenesisFile} is missing: this forked devnet cannot be rebuilt (remove ${layout.home} by hand)`,
    );
  return withGenesis(spec, JSON.parse(text) as GenesisJson);
}

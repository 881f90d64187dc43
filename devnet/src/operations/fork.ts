/**
 * `devnet up --fork URL[@HEIGHT]`: the source's state fetched and verified (fork/source.ts), the
 * fork's genesis made from it with this devnet's validators and accounts (fork/genesis.ts) and
 * checked by the node's own genesis rules, before anything of the devnet is written or started.
 */
import { loadGenesis } from '@chain-devnet/node/chain';
import { DevnetError } from '../errors.js';
import { forkChainId, forkGenesis, forkSupply } from '../fork/genesis.js';
import { type ForkTarget, fetchForkState, forkUrl } from '../fork/source.js';
import type { Fork } from '../fork/spec.js';
import type { Progress } from '../runtime/runtime.js';
import type { Manifest } from '../spec/manifest.js';
import type { NetworkSpec } from '../spec/networkSpec.js';

/**
 * The manifest's `fork: {url, height}` as a target, or undefined: its URL checked as --fork's and
 * taken whole (its height is a field of its own, so an `@` in it is the URL's).
 */
export function forkOfManifest(m: Manifest): ForkTarget | undefined {
  if (m.fork === undefined) return undefined;
  return { url: forkUrl(m.fork.url, `the manifest's fork.url ${m.fork.url}`), height: m.fork.height ?? null };
}

export async function prepareFork(
  target: ForkTarget,
  trusted: unknown,
  spec: NetworkSpec,
  manifest: Manifest,
  progress: Progress,
): Promise<Fork> {
  progress(
    `fork: fetching the state of ${target.url}${target.height === null ? '' : ` at height ${target.height}`}`,
  );
  const { state, hash } = await fetchForkState(target, trusted);
  const source = state.params.chainId;
  const chainId = manifest.chain_id ?? forkChainId(source, state.height);
  if (chainId === source)
    throw new DevnetError(
      'BAD_MANIFEST',
      `chain_id ${chainId} is the source's: a fork needs a chain id of its own (leave chain_id out: ${forkChainId(source, state.height)})`,
    );
  const genesis = forkGenesis(state, spec.genesis, chainId);
  const checked = loadGenesis(genesis);
  if (!checked.ok)
    throw new DevnetError(
      'BAD_FORK',
      `the fork's genesis made from ${target.url} at height ${state.height} is refused:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  const supply = forkSupply(state, spec.genesis);
  progress(
    `fork: ${source} at height ${state.height} verified (block ${state.lastBlockHash.slice(0, 12)}…, ${state.accounts.size} accounts, ${state.validators.size} validators replaced by ${spec.nodes.length}); chain ${chainId}`,
  );
  return {
    genesis,
    record: {
      url: target.url,
      height: state.height,
      source_chain_id: source,
      block_hash: state.lastBlockHash,
      snapshot_hash: hash,
      supply: { carried: supply.carried.toString(), added: (supply.accounts + supply.stakes).toString() },
    },
  };
}

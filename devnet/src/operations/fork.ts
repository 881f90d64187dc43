/**
 * `devnet up --fork URL[@HEIGHT]`: the source's state fetched and verified (fork/source.ts), the
 * fork's genesis made from it with this devnet's validators and accounts (fork/genesis.ts) and
 * checked by the node's own genesis rules, before anything of the devnet is written or started.
 */
import { loadGenesis } from '@chain-devnet/node/chain';
import { DevnetError } from '../base/errors.js';
import { forkChainId, forkGenesis, forkSupply } from '../fork/genesis.js';
import { type ForkState, type ForkTarget, fetchForkState, forkUrl } from '../fork/source.js';
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

/**
 * What the fork proved of whose chain it took (docs/PROTOCOL.md, "Snapshot content"): from protocol
 * 1.2.0 the state names its genesis, held to --fork-genesis when given; below 1.2.0 it names none,
 * and a sister chain (the same seed and keys, another genesis time) would have passed as well.
 */
export function genesisProof(s: ForkState): string {
  const at = `the state at height ${s.state.height}`;
  if (s.genesisHash === null)
    return `${at} is of protocol ${s.state.protocolVersion}, which names no genesis: nothing proves which genesis of chain ${s.state.params.chainId} it is of (a devnet of the same seed started at another time would pass too)`;
  return s.trustedGenesisHash === null
    ? `${at} names genesis ${s.genesisHash} (not checked: no --fork-genesis given)`
    : `${at} names genesis ${s.genesisHash}, the --fork-genesis file's`;
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
  const source = await fetchForkState(target, trusted);
  const { state, hash } = source;
  const sourceChain = state.params.chainId;
  const chainId = manifest.chain_id ?? forkChainId(sourceChain, state.height);
  if (chainId === sourceChain)
    throw new DevnetError(
      'BAD_MANIFEST',
      `chain_id ${chainId} is the source's: a fork needs a chain id of its own (leave chain_id out: ${forkChainId(sourceChain, state.height)})`,
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
    `fork: ${sourceChain} at height ${state.height} verified (block ${state.lastBlockHash.slice(0, 12)}…, ${state.accounts.size} accounts, ${state.validators.size} validators replaced by ${spec.nodes.length}); chain ${chainId}`,
  );
  progress(`fork: ${genesisProof(source)}`);
  return {
    genesis,
    record: {
      url: target.url,
      height: state.height,
      source_chain_id: sourceChain,
      block_hash: state.lastBlockHash,
      snapshot_hash: hash,
      supply: { carried: supply.carried.toString(), added: (supply.accounts + supply.stakes).toString() },
    },
  };
}

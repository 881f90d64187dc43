/**
 * The homes an archive restores, checked where they were written (a folder beside the new home)
 * before any node starts: every node folder is a node of the devnet devnet.json describes, holding
 * that devnet's genesis, and a store of that genesis whose head holds together (the node's own
 * start check: @chain-devnet/node/testnet storedChain) at the height the manifest records; every
 * service folder a service the devnet runs. A store of another chain, an edited one, a genesis
 * that is not the devnet's: refused naming the node and the cause, nothing started.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Genesis, loadGenesis } from '@chain-devnet/node/chain';
import { storedChain } from '@chain-devnet/node/testnet';
import { archiveError } from './format.js';
import type { Archive } from './read.js';

export interface RestoredDevnet {
  /** Every node the devnet has (genesis nodes and those added later). */
  readonly nodes: readonly string[];
  /** The services it runs (the market and its worker, with --market). */
  readonly services: readonly string[];
  /** The genesis every node must hold. */
  readonly genesis: Genesis;
}

const folders = (dir: string) =>
  readdir(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : Promise.reject(e)));

export async function checkRestoredHomes(a: Archive, stage: string, d: RestoredDevnet): Promise<void> {
  const refuse = (what: string) => archiveError(a.file, what);
  for (const name of await folders(join(stage, 'services')))
    if (!d.services.includes(name))
      throw refuse(
        `services/${name}/ is not a service of this devnet (${d.services.join(', ') || 'it runs none'})`,
      );
  for (const name of await folders(join(stage, 'nodes'))) {
    if (!d.nodes.includes(name))
      throw refuse(`nodes/${name}/ is not a node of this devnet (nodes: ${d.nodes.join(', ')})`);
    const home = join(stage, 'nodes', name);
    const text = await readFile(join(home, 'genesis.json'), 'utf8').catch(() => null);
    if (text !== null) {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw refuse(`nodes/${name}/genesis.json is not JSON`);
      }
      const g = loadGenesis(raw);
      if (!g.ok)
        throw refuse(`nodes/${name}/genesis.json is not a genesis: ${g.problems.slice(0, 3).join('; ')}`);
      if (g.genesis.hash !== d.genesis.hash)
        throw refuse(
          `nodes/${name}/genesis.json is genesis ${g.genesis.hash.slice(0, 16)}…, not this devnet's ${d.genesis.hash.slice(0, 16)}… (the one devnet/devnet.json makes)`,
        );
    }
    const stored = await storedChain(home, d.genesis);
    if (stored.problem !== null) throw refuse(`nodes/${name}/data: ${stored.problem}`);
    const recorded = a.manifest.heights[name];
    if (recorded !== undefined && stored.height !== recorded)
      throw refuse(`nodes/${name}/data is at height ${stored.height}, but manifest.json records ${recorded}`);
  }
}

/**
 * `devnet up --from FILE`: a devnet again from its archive, on any runtime and base port. The
 * archive is read and checked whole first, as a stream (archive/read.ts): a bad one is refused
 * before a home is made or anything starts. Then `up` as usual, with the saved spec inputs and genesis time,
 * the nodes added later, and every node's and service's home written from the archive before
 * the first start (the docker and swarm runtimes put it into its volume then, a swarm's on the
 * machine the node will run on); each node goes on from its saved height.
 */
import { join } from 'node:path';
import type { GenesisJson } from '@chain-devnet/node/chain';
import { archiveError } from '../archive/format.js';
import { type Archive, extractArchive, readArchive, readArchiveFile } from '../archive/read.js';
import type { Progress } from '../runtime/runtime.js';
import type { RuntimeChoice } from '../spec/manifest.js';
import { type DevnetState, withStoredDefaults } from '../state.js';
import { type UpResult, up } from './up.js';

export interface RestoreOptions {
  readonly from: string;
  readonly home: string;
  readonly runtime?: RuntimeChoice;
  readonly basePort?: number;
  /** false: no panel (the testkit's). */
  readonly ui?: boolean;
  readonly progress: Progress;
}

export interface RestoreResult extends UpResult {
  /** Each node's height in the archive. */
  readonly heights: Readonly<Record<string, number | null>>;
}

export async function restore(o: RestoreOptions): Promise<RestoreResult> {
  const a = await readArchive(o.from);
  let state: DevnetState;
  try {
    state = JSON.parse(a.devnetFiles.get('devnet/devnet.json')!.toString('utf8')) as DevnetState;
  } catch {
    throw archiveError(o.from, 'devnet/devnet.json is not JSON');
  }
  if (state.version !== 1 || typeof state.input?.genesisTime !== 'number')
    throw archiveError(o.from, `devnet/devnet.json of version ${String(state.version)} is not known`);
  state = withStoredDefaults(state);
  o.progress(
    `restoring a devnet saved on ${a.manifest.runtime} by node ${a.manifest.node_version} at heights ${JSON.stringify(a.manifest.heights)}`,
  );
  // A forked devnet comes back as the fork it was: its genesis from its nodes' homes, its source not asked again.
  const forked =
    state.fork === undefined ? undefined : { record: state.fork, genesis: await forkGenesisOf(a, o.from) };
  const r = await up({
    home: o.home,
    ...(forked === undefined ? {} : { forked }),
    manifestPath: null,
    manifest: state.input.manifest,
    flags: {
      ...(o.runtime === undefined ? {} : { runtime: o.runtime }),
      ...(o.basePort === undefined ? {} : { basePort: o.basePort }),
      ...(o.ui === false ? { ui: false } : {}),
    },
    genesisTime: state.input.genesisTime,
    progress: o.progress,
    fill: async (d) => {
      await d.restoreAdded(state.added, state.versions);
      await extractArchive(a, {
        nodes: join(d.layout.home, 'nodes'),
        services: join(d.layout.home, 'services'),
      });
    },
  });
  return { ...r, heights: a.manifest.heights };
}

/** A forked devnet's genesis: its nodes' genesis.json (every node has the same), parsed. */
async function forkGenesisOf(a: Archive, from: string): Promise<GenesisJson> {
  const path = a.manifest.files.find((f) => /^nodes\/[^/]+\/genesis\.json$/.test(f.path))?.path;
  if (path === undefined)
    throw archiveError(from, 'a forked devnet whose archive holds no nodes/<name>/genesis.json');
  const file = await readArchiveFile(a, path);
  try {
    return JSON.parse(file.toString('utf8')) as GenesisJson;
  } catch {
    throw archiveError(from, 'a node genesis.json is not JSON');
  }
}

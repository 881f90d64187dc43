/**
 * `devnet up --from FILE`: a devnet again from its archive, on any runtime and base port. The
 * archive is read and checked whole first, as a stream (archive/read.ts): a bad one is refused
 * before a home is made or anything starts. Then `up` as usual, with the saved spec inputs and genesis time,
 * the nodes added later, and every node's and service's home written from the archive before
 * the first start (the docker and swarm runtimes put it into its volume then, a swarm's on the
 * machine the node will run on); each node goes on from its saved height.
 */
import { join } from 'node:path';
import { archiveError } from '../archive/format.js';
import { extractArchive, readArchive } from '../archive/read.js';
import type { Progress } from '../runtime/runtime.js';
import type { RuntimeChoice } from '../spec/manifest.js';
import type { DevnetState } from '../state.js';
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
  o.progress(
    `restoring a devnet saved on ${a.manifest.runtime} by node ${a.manifest.node_version} at heights ${JSON.stringify(a.manifest.heights)}`,
  );
  const r = await up({
    home: o.home,
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
      await d.restoreAdded(state.added);
      await extractArchive(a, {
        nodes: join(d.layout.home, 'nodes'),
        services: join(d.layout.home, 'services'),
      });
    },
  });
  return { ...r, heights: a.manifest.heights };
}

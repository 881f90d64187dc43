/**
 * `devnet up --from FILE`: a devnet again from its archive, on any runtime and base port. An
 * archive may be a stranger's (a CI artifact, a teammate's file), so nothing in it is trusted for
 * being there, and everything is checked before a home is made or anything starts:
 *   1. the container, read whole as a stream (archive/read.ts): paths, types, sizes, hashes;
 *   2. devnet/devnet.json by its schema, its manifest by the manifest's, its names
 *      (archive/devnetFile.ts);
 *   3. what it would write, against what a devnet's archive holds and the disk's free space
 *      (archive/restoreBounds.ts);
 *   4. every version it names pinned as a manifest's is (a git commit of this checkout, a path
 *      that is a chain-node build), none inside the new home: nothing an archive wrote is ever run;
 *   5. the files written into a folder beside the home, and each node's genesis and store checked
 *      there (archive/restoredHomes.ts).
 * Then `up` as usual, with the saved spec inputs and genesis time and the nodes added later, the
 * checked homes moved into the new home before the first start (the docker and swarm runtimes put
 * each into its volume then, a swarm's on the machine the node will run on); each node goes on
 * from its saved height.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type GenesisJson, loadGenesis } from '@chain-devnet/node/chain';
import { checkArchivedState } from '../archive/devnetFile.js';
import { archiveError, NET_FILE } from '../archive/format.js';
import { type Archive, extractArchive, readArchive, readArchiveFile } from '../archive/read.js';
import { checkWriteBound } from '../archive/restoreBounds.js';
import { checkRestoredHomes } from '../archive/restoredHomes.js';
import { DevnetError } from '../base/errors.js';
import { Layout } from '../base/layout.js';
import { withGenesis } from '../fork/spec.js';
import { parseNetState } from '../net/netState.js';
import type { Progress } from '../runtime/runtime.js';
import type { RuntimeChoice } from '../spec/manifest.js';
import { pinManifestVersions } from '../spec/manifestVersions.js';
import { buildNetworkSpec } from '../spec/networkSpec.js';
import { type DevnetState, readState, withStoredDefaults } from '../state/devnetState.js';
import { pinVersion } from '../versions/resolve.js';
import { MARKET_SERVICE, WORKER_SERVICE } from './market.js';
import { type UpResult, up } from './up.js';

export interface RestoreOptions {
  readonly from: string;
  readonly home: string;
  readonly runtime?: RuntimeChoice;
  readonly basePort?: number;
  /** false: no panel (the testkit's). */
  readonly ui?: boolean;
  /** `--max-restore-size`: the bytes the restore may write, instead of its bound (restoreBounds.ts). */
  readonly maxBytes?: number;
  readonly progress: Progress;
}

export interface RestoreResult extends UpResult {
  /** Each node's height in the archive. */
  readonly heights: Readonly<Record<string, number | null>>;
}

const DEVNET_FILE = 'devnet/devnet.json';

export async function restore(o: RestoreOptions): Promise<RestoreResult> {
  const a = await readArchive(o.from);
  const home = resolve(o.home);
  if ((await readState(new Layout(home))) !== null)
    throw new DevnetError(
      'ALREADY_UP',
      `a devnet already lives in ${home}: restore into another --home, or devnet down --home ${home} first`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(a.devnetFiles.get(DEVNET_FILE)!.toString('utf8'));
  } catch {
    throw archiveError(o.from, `${DEVNET_FILE} is not JSON`);
  }
  const saved = checkArchivedState(o.from, raw);
  await checkWriteBound(a, home, o.maxBytes);
  // One saved before up pinned the genesis protocol version: its genesis was made at 1.0.0.
  const state = withStoredDefaults(await pinned(saved, home));
  o.progress(
    `restoring a devnet saved on ${a.manifest.runtime} by node ${a.manifest.node_version} at heights ${JSON.stringify(a.manifest.heights)}`,
  );
  // A forked devnet comes back as the fork it was: its genesis from its nodes' homes, its source not asked again.
  const forked =
    state.fork === undefined ? undefined : { record: state.fork, genesis: await forkGenesisOf(a, o.from) };
  const own = buildNetworkSpec(state.input);
  if (
    forked !== undefined &&
    JSON.stringify(forked.genesis.validators) !== JSON.stringify(own.genesis.validators)
  )
    throw archiveError(
      o.from,
      "its fork genesis names other validators than devnet/devnet.json's manifest makes",
    );
  const spec = forked === undefined ? own : withGenesis(own, forked.genesis);
  const net = netStateOf(a, o.from, [...spec.nodes.map((n) => n.name), ...state.added.map((n) => n.name)]);
  const genesis = loadGenesis(spec.genesis);
  if (!genesis.ok) throw archiveError(o.from, `its genesis is refused: ${genesis.problems.join('; ')}`);
  // Written beside the home (one disk: moved in by a rename), checked there, removed whatever happens.
  await mkdir(dirname(home), { recursive: true });
  const stage = await mkdtemp(join(dirname(home), `.${basename(home)}.restoring-`));
  try {
    await extractArchive(a, {
      nodes: join(stage, 'nodes'),
      services: join(stage, 'services'),
      timeline: join(stage, 'timeline'),
    });
    await checkRestoredHomes(a, stage, {
      nodes: [...spec.nodes.map((n) => n.name), ...state.added.map((n) => n.name)],
      services: spec.marketPort === null ? [] : [MARKET_SERVICE, WORKER_SERVICE],
      genesis: genesis.genesis,
    });
    const r = await up({
      home,
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
        // Before the first start: each node's conditions are made from it then (Devnet.launch).
        if (net !== null) await writeFile(d.layout.netFile, net);
        for (const part of ['nodes', 'services', 'timeline'])
          await rename(join(stage, part), join(d.layout.home, part)).catch((e: NodeJS.ErrnoException) =>
            e.code === 'ENOENT' ? undefined : Promise.reject(e),
          );
      },
    });
    return { ...r, heights: a.manifest.heights };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/**
 * The saved state with every version it names pinned as a manifest's is, on this machine: a git
 * version a commit of this checkout, a path version a chain-node build outside the new home
 * (versions/resolve.ts). BAD_VERSION names the field.
 */
async function pinned(s: DevnetState, home: string): Promise<DevnetState> {
  const bounds = { outside: home };
  const manifest = await pinManifestVersions(s.input.manifest, bounds, `${DEVNET_FILE} input.manifest.`);
  if (s.versions === undefined) return { ...s, input: { ...s.input, manifest } };
  const versions: Record<string, string> = {};
  for (const [name, v] of Object.entries(s.versions))
    versions[name] = await pinVersion(v, `${DEVNET_FILE} versions["${name}"]`, bounds);
  return { ...s, input: { ...s.input, manifest }, versions };
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

/** devnet/net.json's text when the archive has it, checked against the devnet's nodes (null: none). */
function netStateOf(a: Archive, from: string, names: readonly string[]): string | null {
  const text = a.devnetFiles.get(NET_FILE)?.toString('utf8');
  if (text === undefined) return null;
  const parsed = parseNetState(text, (n) => names.includes(n));
  if (!parsed.ok) throw archiveError(from, `${NET_FILE}: ${parsed.error}`);
  return text;
}

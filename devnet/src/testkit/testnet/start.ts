/**
 * Starting and attaching: a devnet brought up from a manifest through the same operations as
 * `devnet up`, in this process, recorded in the run registry before anything starts (so a run
 * killed during its bring-up is reaped at the next start), and removed again when the bring-up
 * fails or is interrupted; or a devnet already running, opened from its home and never owned.
 * The Testnet object itself is made by the caller (`make`), so this file does not import it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { processStart } from '@chain-devnet/kit/process';
import { Devnet } from '../../devnet/devnet.js';
import { freeDevnetBase } from '../../harness/ports.js';
import { restore } from '../../operations/restore.js';
import { loadManifest, up } from '../../operations/up.js';
import { resolveRuntime } from '../../runtime/select.js';
import { type Manifest, requireManifest } from '../../spec/manifest.js';
import { DEFAULTS } from '../../spec/networkSpec.js';
import { TestkitUsageError } from '../errors.js';
import { defaultLogsDir } from '../nodeLogs.js';
import { reapLeftovers } from '../reaper.js';
import { RunRegistry } from '../registry.js';
import { onInterrupt } from '../signals.js';
import { archivedManifest } from './failureArchive.js';
import { type Run, runLog, type StartOptions } from './options.js';

const manifestValidators = (m: Manifest) =>
  typeof m.validators === 'number' ? m.validators : (m.validators?.length ?? DEFAULTS.validators);

/** What `make` returns: the run's object, and what it reports once the devnet is up. */
interface Made<T> {
  readonly made: T;
  readonly upLine: string;
}

/**
 * Brings a devnet up from a manifest (monitoring off unless it says otherwise; a free base port
 * unless it names one); `make` turns it into the caller's object. What a killed run left behind
 * is torn down first.
 */
export async function startRun<T>(
  o: StartOptions,
  make: (devnet: Devnet, run: Run) => Promise<Made<T>>,
): Promise<T> {
  const name = o.name ?? 'testnet';
  const log = runLog(name, o.log);
  if (o.manifest !== undefined && o.manifestFile !== undefined)
    throw new TestkitUsageError('start takes a manifest or a manifestFile, not both');
  const registry = new RunRegistry();
  await reapLeftovers(registry, log);
  if (o.from !== undefined && (o.manifest !== undefined || o.manifestFile !== undefined))
    throw new TestkitUsageError('restore takes an archive: its manifest is in it');
  const base =
    o.from !== undefined
      ? await archivedManifest(o.from)
      : o.manifestFile !== undefined
        ? await loadManifest(o.manifestFile)
        : requireManifest(o.manifest ?? {}, 'the manifest');
  const { kind, why } = await resolveRuntime(o.runtime ?? base.runtime ?? 'auto');
  const monitoring = base.monitoring ?? false;
  const manifest: Manifest = {
    ...base,
    runtime: kind,
    monitoring,
    // A restored devnet's saved port may still be in use (by the run it was saved from).
    base_port:
      (o.from === undefined ? base.base_port : undefined) ??
      (await freeDevnetBase(manifestValidators(base) + (o.spareNodes ?? 4), monitoring)),
  };
  const tmp = o.home === undefined ? await mkdtemp(join(tmpdir(), `testkit-${kind}-`)) : null;
  const home = resolve(o.home ?? join(tmp!, 'home'));
  const runId = `${name}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const logsDir = resolve(o.keepLogsDir ?? defaultLogsDir());
  // Recorded before anything starts: a run killed during its bring-up is found too.
  await registry.add(runId, {
    home,
    runtime: kind,
    pid: process.pid,
    pidStart: await processStart(process.pid),
    startedAt: new Date().toISOString(),
    logsDir,
    tmp,
    name,
  });
  const run: Run = { owned: true, name, logsDir, tmp, runId, log, invariants: o.invariants ?? {} };
  // Until the devnet object exists, an interrupt removes what the runtime made in `home`.
  const unregisterEarly = onInterrupt((sig) => reapLeftovers(registry, log, runId, `interrupted by ${sig}`));
  try {
    const started = Date.now();
    log(`devnet up on ${kind} (${why}) in ${home}`);
    const r =
      o.from === undefined
        ? await up({
            home,
            manifestPath: null,
            manifest,
            flags: {},
            genesisTime: Math.floor(Date.now() / 1000),
            progress: () => undefined,
          })
        : await restore({ from: o.from, home, runtime: kind, basePort: manifest.base_port!, progress: log });
    const { made, upLine } = await make(r.devnet, run);
    log(`${r.devnet.nodes.length} nodes up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${upLine}`);
    return made;
  } catch (e) {
    // up() removed what it started and kept the folder: its logs go to the run's log folder.
    await reapLeftovers(registry, log, runId, 'bring-up failed');
    throw e;
  } finally {
    unregisterEarly();
  }
}

/** A devnet already running (its --home), and the run of a testkit that does not own it. */
export async function attachRun(
  home: string,
  o: Pick<StartOptions, 'name' | 'log' | 'keepLogsDir' | 'invariants'>,
): Promise<{ devnet: Devnet; run: Run }> {
  const name = o.name ?? 'testnet';
  const devnet = await Devnet.open(resolve(home));
  const run: Run = {
    owned: false,
    name,
    logsDir: resolve(o.keepLogsDir ?? defaultLogsDir()),
    tmp: null,
    runId: null,
    log: runLog(name, o.log),
    invariants: o.invariants ?? {},
  };
  return { devnet, run };
}

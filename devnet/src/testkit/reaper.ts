/**
 * Tears down what a run recorded in the registry and did not take down itself (its starter was
 * killed, or its bring-up failed): every node's log kept first (the run did not end well), then
 * the runtime's teardown of its home (processes by pid file, containers, networks and volumes by
 * label), its folders removed, its record dropped.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Layout } from '../base/layout.js';
import { Devnet } from '../devnet/devnet.js';
import { takeDown } from '../operations/down.js';
import { createRuntime } from '../runtime/select.js';
import { keepLogs, stamp } from './nodeLogs.js';
import type { RunRecord, RunRegistry } from './registry.js';

async function reap(record: RunRecord, why: string, log: (line: string) => void): Promise<void> {
  const devnet = await Devnet.open(record.home).catch(() => null);
  if (devnet !== null) {
    const dir = join(record.logsDir, `${record.name}-${record.runtime}-${stamp()}`);
    await keepLogs(devnet, dir, { 'why.txt': `${why}\n` }).then(
      () => log(`${why}: every node's log kept in ${dir}`),
      (e: Error) => log(`${why}: keeping the logs failed: ${e.message}`),
    );
  }
  // Without its state there is no manifest: a swarm devnet is then taken apart through the
  // manager only (its services, configs, secrets, network), without the engines it named.
  const runtime = devnet?.runtime ?? (await createRuntime(record.runtime, new Layout(record.home), {}));
  const removed = await takeDown(new Layout(record.home), runtime, false);
  if (record.tmp !== null) await rm(record.tmp, { recursive: true, force: true });
  log(`${why}: torn down ${record.home} on ${record.runtime} (${removed.length} things removed)`);
}

/**
 * Reaps every run whose starter is gone; with `only`, that run alone, whatever its starter (a
 * bring-up that failed or was interrupted in this process).
 */
export async function reapLeftovers(
  registry: RunRegistry,
  log: (line: string) => void,
  only?: string,
  why = only === undefined ? 'a killed run left this behind' : 'interrupted',
): Promise<void> {
  const runs =
    only === undefined
      ? await registry.leftovers()
      : await registry.read(only).then((record) => (record === null ? [] : [{ id: only, record }]));
  for (const { id, record } of runs) {
    try {
      await reap(record, why, log);
      await registry.remove(id);
    } catch (e) {
      log(`could not tear down ${record.home} (${(e as Error).message}); left for the next start`);
    }
  }
}

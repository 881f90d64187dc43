/**
 * What the docker-runtime tests share: whether they run (an engine answers; in CI, CI=true, a
 * missing engine is a failure, elsewhere the tests are skipped with a line that says so), and
 * what a devnet left on the engine.
 */

import { Layout } from '../../src/base/layout.js';
import { dockerEngineAnswers } from '../../src/harness/docker.js';
import { docker } from '../../src/runtime/docker/engine.js';

/** false when an engine answers, else the reason to skip (after printing it). */
export async function dockerSkip(what: string): Promise<string | false> {
  const engine = await dockerEngineAnswers();
  if (!engine.ok && process.env.CI === 'true')
    throw new Error(`CI=true but no Docker engine answers (${engine.reason}): .ci/run starts one`);
  if (engine.ok) return false;
  console.log(`# ${what} skipped: no Docker engine answers (${engine.reason}); start dockerd to run them`);
  return `no Docker engine (${engine.reason})`;
}

/**
 * Containers, networks and volumes of the devnet in `home`, by label and by name: `down` finds
 * what to remove by label, so a thing made without the label (a volume the engine made for a
 * bind) would pass a check by label alone.
 */
export async function dockerLeftovers(home: string): Promise<string[]> {
  const id = new Layout(home).id;
  const d = docker();
  const found = new Set<string>();
  for (const filters of [{ label: [`io.chain-devnet.devnet=${id}`] }, { name: [`devnet-${id}`] }]) {
    for (const c of await d.listContainers({ all: true, filters })) found.add(`container ${c.Names[0]}`);
    for (const n of await d.listNetworks({ filters })) found.add(`network ${n.Name}`);
    for (const v of (await d.listVolumes({ filters })).Volumes ?? []) found.add(`volume ${v.Name}`);
  }
  return [...found].sort();
}

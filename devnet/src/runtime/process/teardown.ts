/** `devnet down` on the process runtime: every process with a pid file (nodes, services, monitors) stopped, then the home removed. */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layout } from '../../base/layout.js';
import { MONITORS } from '../../monitoring/monitorHome.js';
import { unmountUnder } from './dataTmpfs.js';
import { stopAndReap } from './nodeHandle.js';

export async function teardownProcesses(layout: Layout, keepData: boolean): Promise<string[]> {
  const removed: string[] = [];
  await Promise.all(
    (await runNames(layout)).map(async (name) => {
      const gone = await stopAndReap(layout, name);
      if (gone !== null) removed.push(gone);
    }),
  );
  // The nodes' data disks (dataTmpfs.ts), found in the mount table: a killed run's too.
  removed.push(...(await unmountUnder(layout.home, keepData)));
  if (!keepData) {
    await rm(layout.home, { recursive: true, force: true });
    removed.push(`folder ${layout.home}`);
  }
  return removed;
}

/** Every process with a pid file: the nodes, the services and the monitors. */
async function runNames(layout: Layout): Promise<string[]> {
  const files = await readdir(join(layout.home, 'run')).catch(() => [] as string[]);
  const names = files.filter((f) => f.endsWith('.pid')).map((f) => f.slice(0, -4));
  for (const m of MONITORS) if (!names.includes(m)) names.push(m);
  return names;
}

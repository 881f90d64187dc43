/**
 * Nodes' logs through the runtime (the process runtime's log files, the engine's container logs),
 * and the folder a failed run keeps them in: every node's whole log and the devnet's status.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Devnet } from '../devnet/devnet.js';
import { readLog } from '../runtime/nodeLog.js';
import type { Runtime } from '../runtime/runtime.js';
import { splitLines } from './logs.js';

export async function logLines(runtime: Runtime, name: string): Promise<string[]> {
  return splitLines(await readLog(runtime, name));
}

/** The folder failed runs keep their logs in: TESTKIT_LOGS_DIR, else ./testkit-logs. */
export function defaultLogsDir(): string {
  return resolve(process.env.TESTKIT_LOGS_DIR ?? 'testkit-logs');
}

export function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Writes `<dir>/<node>.log` for every node and `<dir>/status.json`; returns the folder. */
export async function keepLogs(
  devnet: Devnet,
  dir: string,
  extra: Record<string, string> = {},
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const status = await devnet.status().then(
    (s) => JSON.stringify(s, null, 2),
    (e: Error) => `devnet status failed: ${e.message}`,
  );
  await writeFile(join(dir, 'status.json'), `${status}\n`);
  for (const n of devnet.nodes) {
    const text = await readLog(devnet.runtime, n.name).catch((e: Error) => `(no log: ${e.message})\n`);
    await writeFile(join(dir, `${n.name}.log`), text);
  }
  for (const [file, text] of Object.entries(extra)) await writeFile(join(dir, file), text);
  return dir;
}

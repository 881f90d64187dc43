/**
 * Nodes' logs through the runtime (the process runtime's log files, the engine's container logs),
 * and the folder a failed run keeps them in: every node's whole log, the task market's and its
 * worker's (a devnet with the market), and the devnet's status.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Devnet } from '../devnet/devnet.js';
import { MARKET_SERVICE, marketStatus, WORKER_SERVICE } from '../operations/market.js';
import { devnetTimeline } from '../operations/timeline.js';
import { readLog } from '../runtime/nodeLog.js';
import type { Runtime } from '../runtime/runtime.js';
import { formatTimeline } from '../timeline/format.js';
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

/**
 * The services whose logs a failed run keeps beside the nodes': the task market and its sample
 * worker, on a devnet that runs them (a task that never completes is theirs to explain: CI once
 * kept only the nodes' logs of such a failure).
 */
export function loggedServices(devnet: Devnet): string[] {
  return devnet.spec.marketPort === null ? [] : [MARKET_SERVICE, WORKER_SERVICE];
}

/**
 * Writes `<dir>/<node>.log` for every node, `<dir>/timeline.log` (every log and the devnet's
 * operations merged, as `devnet logs --all` prints them), `<dir>/status.json`, and on a devnet with the market
 * `<dir>/market.log`, `<dir>/market-worker.log` and `<dir>/market-status.json` (whether each runs,
 * the height the market applied: devnet status's market line); returns the folder. A log that
 * cannot be read says why in its file.
 */
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
  if (devnet.spec.marketPort !== null) {
    const market = await marketStatus(devnet).then(
      (s) => JSON.stringify(s, null, 2),
      (e: Error) => `market status failed: ${e.message}`,
    );
    await writeFile(join(dir, 'market-status.json'), `${market}\n`);
  }
  for (const name of [...devnet.nodes.map((n) => n.name), ...loggedServices(devnet)]) {
    const text = await readLog(devnet.runtime, name).catch((e: Error) => `(no log: ${e.message})\n`);
    await writeFile(join(dir, `${name}.log`), text);
  }
  // Every log and the devnet's operations on one time axis, as `devnet logs --all` prints them.
  const timeline = await devnetTimeline(devnet).then(
    formatTimeline,
    (e: Error) => `(no timeline: ${e.message})\n`,
  );
  await writeFile(join(dir, 'timeline.log'), timeline);
  for (const [file, text] of Object.entries(extra)) await writeFile(join(dir, file), text);
  return dir;
}

/**
 * The devnet's timeline (`devnet logs --all`): every node's log through its runtime (the process
 * runtime's files, the engine's container and service logs: readLog), the task market's services'
 * when it runs them, and the devnet's own events (timeline/events.ts), merged on one time axis;
 * on a devnet restored from an archive, each after what the archive kept of it (`devnet save`
 * keeps every source's whole log as timeline/<source>.log). A log that cannot be read now (a node
 * whose container is gone) is one `text` entry saying so.
 */

import { readFile } from 'node:fs/promises';
import type { Devnet } from '../devnet/devnet.js';
import { readLog } from '../runtime/nodeLog.js';
import { mergeLogs, parseLog, type TimelineEntry } from '../timeline/entries.js';
import { MARKET_SERVICE, WORKER_SERVICE } from './market.js';

/** The sources of the devnet's timeline, in the order a tie of times is broken: nodes, services, the devnet. */
export function timelineSources(d: Devnet): string[] {
  const services = d.spec.marketPort === null ? [] : [MARKET_SERVICE, WORKER_SERVICE];
  return [...d.nodes.map((n) => n.name), ...services, 'devnet'];
}

/**
 * A source's whole log: what a restored archive kept of it (Layout.earlierLog), then what it wrote
 * since (its runtime's log, the devnet's events file).
 */
export async function sourceLog(d: Devnet, source: string): Promise<string> {
  const earlier = await readFile(d.layout.earlierLog(source), 'utf8').catch(() => '');
  const now =
    source === 'devnet'
      ? d.events.text()
      : await readLog(d.runtime, source).catch(
          (e: Error) => `its log cannot be read now: ${e.message.split('\n')[0]}\n`,
        );
  return earlier === '' || earlier.endsWith('\n') ? earlier + now : `${earlier}\n${now}`;
}

/** Each source's whole log, in timelineSources' order. */
export async function timelineTexts(
  d: Devnet,
): Promise<{ readonly source: string; readonly text: string }[]> {
  return Promise.all(
    timelineSources(d).map(async (source) => ({ source, text: await sourceLog(d, source) })),
  );
}

export async function devnetTimeline(d: Devnet): Promise<TimelineEntry[]> {
  return mergeLogs((await timelineTexts(d)).map((l) => parseLog(l.source, l.text)));
}

/**
 * The host as the other commands see it: a detached `devnet host --home H` process of this
 * machine, its id in threads/host.pid and its output in threads/host.log, started when a node is
 * to start and none answers, stopped by `devnet down` (SIGTERM: it stops its nodes first).
 */
import { DetachedProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { NODE_V8_FLAGS } from '@chain-devnet/node/builds';
import type { Layout } from '../../base/layout.js';
import { devnetProgram } from '../../base/repo.js';
import { ask, hostLogFile, hostMarker, hostPidFile, NoHost } from './control.js';

/** The host stops its nodes on SIGTERM, each within its own grace (thread.ts): more than one's. */
const HOST_GRACE_MS = 20_000;

/** Hosts being started by this process, by home: the nodes of one `up` start together. */
const starting = new Map<string, Promise<void>>();

/**
 * Starts the devnet's host unless one is being started. It runs under the V8 flags the node's
 * code cache was made with (flags are a process's, so its threads' too), but not under a node
 * process's environment (NODE_ENV): its MALLOC_ARENA_MAX=2, right for a process of a few threads
 * that allocate, made the 21 node threads of one host contend for two malloc arenas: 1.24 cores
 * against 1.10 with glibc's own number of arenas (8 a core), for 1-2 MiB a node (docs/BENCHMARKS.md,
 * "A fourth runtime: threads").
 */
export function ensureHost(layout: Layout): Promise<void> {
  let s = starting.get(layout.home);
  if (s === undefined) {
    s = startHost(layout).finally(() => starting.delete(layout.home));
    starting.set(layout.home, s);
  }
  return s;
}

/** The host's process, by its files. */
const host = (layout: Layout) =>
  new DetachedProgram({
    what: 'threads host',
    command: process.execPath,
    args: [...NODE_V8_FLAGS, devnetProgram(), 'host', '--home', layout.home],
    pidFile: hostPidFile(layout),
    logFile: hostLogFile(layout),
    marker: hostMarker(layout),
    graceMs: HOST_GRACE_MS,
  });

async function startHost(layout: Layout): Promise<void> {
  await host(layout).start();
  await waitFor(
    `the threads host of ${layout.home} to listen (its log: ${hostLogFile(layout)})`,
    15_000,
    () =>
      ask(layout, { op: 'state', name: 'host' }).then(
        () => true,
        (e: unknown) => (e instanceof NoHost ? false : Promise.reject(e)),
      ),
    { pollMs: 20 },
  );
}

/** Stops the host if it runs, its nodes with it; what was stopped, for `devnet down`'s list. */
export function stopHost(layout: Layout): Promise<string[]> {
  return host(layout).stop();
}

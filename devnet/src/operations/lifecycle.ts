/**
 * Stopping and starting a whole devnet (`devnet stop|start` without a node, `up` on a stopped or
 * kept home, the testkit's stopAll/startAll, the scenario's `stop: all`, the panel's buttons):
 * every node stopped gracefully (SIGTERM, the engine's stop: a node finishes the block it is
 * storing and closes its store), the panel, the market and the monitors with them; started again
 * on the same runtime, every node at once, each resuming the height it was in from its
 * priv-validator state (docs/RULES.md, "Across a pause").
 */
import type { Devnet } from '../devnet/devnet.js';
import { MONITORS } from '../monitoring/monitorHome.js';
import { panelUrl, startPanel, stopPanel } from '../panel/process.js';
import type { MonitoringEndpoints, Progress } from '../runtime/runtime.js';
import { startSupervisor, stopSupervisor, supervisorLogFile } from '../supervisor/process.js';
import { MARKET_SERVICE, startMarketServices, WORKER_SERVICE } from './market.js';
import { startMonitoring } from './monitors.js';

export interface Started {
  readonly monitoring: MonitoringEndpoints;
  /** The task market's URL (`--market`), or null. */
  readonly market: string | null;
  /** The panel's link (its secret in the fragment), or null without a panel. */
  readonly ui: string | null;
}

/**
 * Every node started at once (each start returns once its process or container runs, none waits
 * for another), then monitoring and the panel (waited for beside the nodes), a wait until every node has a final block (resumed:
 * one above the highest any had), then the market (it follows the chain, its worker needs it). `up` and `start` both.
 */
export async function startEverything(d: Devnet, resumed: boolean, progress: Progress): Promise<Started> {
  progress(`starting ${d.nodes.length} nodes`);
  const launches = await Promise.all(d.nodes.map((n) => d.launch(n)));
  await Promise.all(launches.map((l) => d.runtime.node(l.node.name).start(l)));
  await d.saveStatus('running');
  const monitoring: MonitoringEndpoints = d.spec.monitoring
    ? await startMonitoring(d.runtime, d.layout, d.spec, d.nodes, progress)
    : { prometheus: null, grafana: null, notes: ['monitoring off (--no-monitoring)'] };
  await d.saveMonitoring({ ...monitoring, notes: [...monitoring.notes] });
  // Started before the wait, so that the nodes' start can be watched, and waited for beside it:
  // its start (a Node process loading the devnet's code) need not hold up the nodes' first block.
  const panel = d.spec.ui
    ? startPanel(d).then((link) => {
        progress(`panel: ${panelUrl(d.spec.uiPort)}`);
        return link;
      })
    : null;
  // Its failure is the wait's below; one met before it (the supervisor's) is not left unheard.
  panel?.catch(() => undefined);
  if (d.state.input.manifest.auto_upgrade === true) {
    // Built now, not when the nodes halt (a git version's build takes half a minute or more).
    for (const version of Object.values(d.state.input.manifest.upgrades ?? {})) await d.build(version);
    await startSupervisor(d.layout);
    progress(
      `auto-upgrade: the supervisor restarts nodes that halt for a plan (log: ${supervisorLogFile(d.layout)})`,
    );
  }
  progress('waiting for a final block on every node');
  const names = d.nodes.map((n) => n.name);
  const [ui] = await Promise.all([panel, d.waitForHeight(names, 1, d.progressBound(3))]);
  // Resumed: every node answers at its stored height at once; the wait is on the chain going on.
  if (resumed) await d.waitForHeight(names, (await topHeight(d)) + 1, d.progressBound(3));
  let market: string | null = null;
  if (d.spec.marketPort !== null) {
    progress('starting the task market and a sample worker');
    market = await startMarketServices(d);
  }
  return { monitoring, market, ui };
}

/** The highest final block any node reports, 0 when none answers. */
async function topHeight(d: Devnet): Promise<number> {
  return Math.max(0, ...(await d.status()).map((n) => n.height ?? 0));
}

/**
 * Stops the whole devnet: the panel, the market's worker and the market, then the monitors and
 * every node at once, gracefully (the monitors one after another before the nodes took 3.5 s more
 * of a 4-validator `devnet stop` on a swarm: docs/BENCHMARKS.md). Its files, volumes and
 * containers stay; devnet.json says `stopped`. Returns the highest height a node had just before
 * the stop (a block may still follow it).
 */
export async function stopAll(
  d: Devnet,
  progress: Progress,
  o: { readonly panel: boolean } = { panel: true },
): Promise<number> {
  // The panel's own stop button leaves it up: it offers the start.
  if (o.panel) await stopPanel(d.layout);
  // First: a node stopped now is not one halted for a plan, but it must not be taken for one.
  await stopSupervisor(d.layout);
  for (const s of [WORKER_SERVICE, MARKET_SERVICE]) await d.runtime.node(s).stop();
  const height = await topHeight(d);
  progress(`stopping ${d.nodes.length} nodes and the monitors (at height ${height})`);
  d.events.note('stop', `stop every node (at height ${height})`, { height });
  await Promise.all([...MONITORS, ...d.nodes.map((n) => n.name)].map((s) => d.runtime.node(s).stop()));
  await d.saveStatus('stopped');
  return height;
}

/** Starts a stopped devnet again where it stopped (every node at once), with its services. */
export function startAll(d: Devnet, progress: Progress): Promise<Started> {
  d.events.note('start', 'start every node', {});
  return startEverything(d, true, progress);
}

/** True when any node of the devnet runs (or is paused). */
export async function anyRunning(d: Devnet): Promise<boolean> {
  const states = await Promise.all(d.nodes.map((n) => d.runtime.node(n.name).state()));
  return states.some((s) => s === 'running' || s === 'paused');
}

/**
 * For a copy of the stores (`devnet save` of a running devnet): the market's services, then every
 * node at once, stopped gracefully (a paused one is resumed first). Unlike stopAll, monitoring and
 * the panel stay and devnet.json still says `running`: the devnet is back as soon as the copy is.
 */
export async function stopForCopy(d: Devnet): Promise<void> {
  for (const s of marketServices(d)) await d.runtime.node(s).stop();
  await Promise.all(d.nodes.map((n) => d.runtime.node(n.name).stop()));
}

/** After the copy: every node started again from its home, and the market's services once the chain goes on. */
export async function restartAfterCopy(d: Devnet, fromHeight = 1): Promise<void> {
  await Promise.all(d.nodes.map((n) => d.startNode(n.name)));
  await d.waitForHeight(
    d.nodes.map((n) => n.name),
    fromHeight,
    d.progressBound(3),
  );
  if (marketServices(d).length > 0) await startMarketServices(d);
}

function marketServices(d: Devnet): string[] {
  return d.spec.marketPort === null ? [] : [WORKER_SERVICE, MARKET_SERVICE];
}

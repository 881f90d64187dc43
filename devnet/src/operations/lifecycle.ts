/**
 * Stopping every node of a devnet gracefully, all at once, and starting them again: what
 * `devnet save` does around its copy (and what `devnet stop`/`devnet start` of a whole devnet
 * need). The task market and its worker stop with the nodes (the market's store is copied too)
 * and start after them; monitoring and the panel are left running.
 */
import type { Devnet } from '../devnet.js';
import { MARKET_SERVICE, startMarketServices, WORKER_SERVICE } from '../market.js';

function services(d: Devnet): string[] {
  return d.spec.marketPort === null ? [] : [WORKER_SERVICE, MARKET_SERVICE];
}

/** True when any node of the devnet runs (or is paused). */
export async function anyRunning(d: Devnet): Promise<boolean> {
  const states = await Promise.all(d.nodes.map((n) => d.runtime.node(n.name).state()));
  return states.some((s) => s === 'running' || s === 'paused');
}

/** SIGTERM to every node at once (a paused one is resumed first), then the market's services. */
export async function stopAll(d: Devnet): Promise<void> {
  for (const s of services(d)) await d.runtime.node(s).stop();
  await Promise.all(d.nodes.map((n) => d.runtime.node(n.name).stop()));
}

/** Starts every node again from its home, and the market's services once the chain goes on. */
export async function startAll(d: Devnet, fromHeight = 1): Promise<void> {
  await Promise.all(d.nodes.map((n) => d.startNode(n.name)));
  await d.waitForHeight(
    d.nodes.map((n) => n.name),
    fromHeight,
    d.progressBound(3),
  );
  if (services(d).length > 0) await startMarketServices(d);
}

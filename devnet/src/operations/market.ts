/**
 * The task market in a devnet (`devnet up --market`, manifest `market: true`): the market
 * (docs/MARKET.md) at P+1093, following the first node's RPC, its escrow the genesis account
 * `market`; and one sample worker, the genesis account `market-worker`, submitting through the
 * same node. Both are given every node, the first first, and go on through another while they
 * cannot reach one (client/failover.ts: docker e2e runs saw one running node's name stop resolving
 * in the services' containers). Both are services of the runtime (runtime.ts), so every runtime
 * places them its own way; their keys come from the seed like every devnet key.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TimeoutError, waitFor } from '@chain-devnet/kit/wait';
import { MarketClient } from '@chain-devnet/node/market';
import { DevnetError } from '../base/errors.js';
import type { Devnet } from '../devnet/devnet.js';
import { MARKET_SERVICE_NAME } from '../monitoring/prometheusConfig.js';
import type { ServiceLaunch } from '../runtime/runtime.js';
import { MARKET_ACCOUNTS } from '../spec/networkSpec.js';

export const MARKET_SERVICE = MARKET_SERVICE_NAME;
export const WORKER_SERVICE = 'market-worker';

/**
 * The market's URL from this machine (on a swarm: on its manager), or null for a devnet without
 * it. `up` records it before the market starts; a devnet.json written before that field has
 * 127.0.0.1, where every runtime of its time published the market.
 */
export function marketUrl(d: Devnet): string | null {
  if (d.spec.marketPort === null) return null;
  return d.state.market ?? `http://127.0.0.1:${d.spec.marketPort}`;
}

/** A service's folder with the key file of its genesis account (mode 600, like accounts.json). */
async function serviceHome(d: Devnet, service: string, account: string): Promise<string> {
  const home = d.layout.serviceHome(service);
  const a = d.spec.accounts.find((x) => x.name === account);
  if (a === undefined) throw new Error(`the devnet has no ${account} account`);
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'key.json'), `${JSON.stringify(a.key, null, 2)}\n`, { mode: 0o600 });
  return home;
}

/** Starts the market and its worker (once the chain has a block), waits until the market answers. */
export async function startMarketServices(d: Devnet): Promise<string> {
  const port = d.spec.marketPort;
  if (port === null) throw new Error('this devnet runs no market');
  const url = await d.runtime.serviceUrl(port);
  await d.saveMarketUrl(url);
  const market: ServiceLaunch = {
    name: MARKET_SERVICE,
    program: 'chain-market',
    home: await serviceHome(d, MARKET_SERVICE, MARKET_ACCOUNTS.escrow),
    port,
    args: (r) => [
      'start',
      // Every node, the first first: the market follows another while it cannot reach one.
      '--rpc',
      d.nodes.map((n) => r.rpc(n)).join(','),
      '--key',
      `${r.home}/key.json`,
      '--home',
      `${r.home}/data`,
      '--host',
      r.host,
      '--port',
      String(port),
    ],
  };
  const worker: ServiceLaunch = {
    name: WORKER_SERVICE,
    program: 'chain-market',
    home: await serviceHome(d, WORKER_SERVICE, MARKET_ACCOUNTS.worker),
    port: null,
    args: (r) => [
      'worker',
      '--market',
      r.service(MARKET_SERVICE, port),
      // Every node at start, the first first: the worker goes on through another while one is
      // stopped or cannot be reached (client/failover.ts).
      '--rpc',
      d.nodes.map((n) => r.rpc(n)).join(','),
      '--key',
      `${r.home}/key.json`,
    ],
  };
  // chain-market is part of every runtime's programs: never skipped.
  await d.runtime.startService(market, () => undefined);
  await d.runtime.startService(worker, () => undefined);
  const client = new MarketClient(url, 1_000);
  try {
    await waitFor('the task market to answer', d.progressBound(5), async () =>
      client.info().then(
        () => true,
        () => false,
      ),
    );
  } catch (e) {
    if (!(e instanceof TimeoutError)) throw e;
    throw new DevnetError('NODE_START', `the task market did not answer on ${url}: see devnet logs market`);
  }
  return url;
}

/** The market and its worker as the runtime and the market's own answer see them (`devnet status`). */
export interface MarketStatus {
  readonly url: string;
  readonly state: string;
  readonly worker: string;
  /** Whether GET /market answers. */
  readonly up: boolean;
  /** The chain height the market has applied, or null while it does not answer. */
  readonly height: number | null;
}

export async function marketStatus(d: Devnet): Promise<MarketStatus | null> {
  const url = marketUrl(d);
  if (url === null) return null;
  const [state, worker, info] = await Promise.all([
    d.runtime.node(MARKET_SERVICE).state(),
    d.runtime.node(WORKER_SERVICE).state(),
    new MarketClient(url, 2_000).info().catch(() => null),
  ]);
  return { url, state, worker, up: info !== null, height: info?.height ?? null };
}

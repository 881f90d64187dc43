/**
 * The composition root of the market process (`chain-market start`): its store, its view of the
 * chain (a node's RPC, nothing else), the service, the follower, the payer, its metrics and its
 * HTTP server; stopped in reverse order. One process, one of each.
 */
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createRpcServer } from '@chain-devnet/kit/http';
import type { Logger } from '@chain-devnet/kit/log';
import { waitFor } from '@chain-devnet/kit/wait';
import { failoverRpc } from '../client/failover.js';
import type { RpcClient } from '../client/rpcClient.js';
import { accountAddressOf } from '../crypto/address.js';
import { publicKeyHexOf } from '../crypto/keys.js';
import { readKeyFile } from '../home/keyFile.js';
import { createMarketMetrics, type MarketMetrics } from '../metrics/market.js';
import { Follower } from './follower.js';
import { createMarketApp, DEFAULT_MARKET_HTTP } from './http/app.js';
import { Payer } from './payer.js';
import type { EscrowSigner } from './payouts.js';
import { DEFAULT_TRANSFER_FEE, type MarketRules } from './rules.js';
import { MarketService } from './service.js';
import { type Books, MarketStore } from './store.js';

export interface MarketConfig {
  readonly home: string;
  readonly rpcUrl: string;
  /** The escrow account's key file (the node's key file format). */
  readonly keyFile: string;
  readonly host: string;
  readonly port: number;
  readonly pollMs: number;
  readonly fee: bigint;
  readonly rules: MarketRules;
  readonly fundingWaitMs: number;
  /** Writes are refused (503) while the market is more blocks than this behind its node. */
  readonly maxLagBlocks: number;
  /** TEST ONLY (CHAIN_MARKET_CRASH_AFTER_SENDS): SIGKILL after that many payouts sent; devnet chains only. */
  readonly crashAfterSends: number | null;
  readonly logger: Logger;
}

export interface RunningMarket {
  readonly url: string;
  readonly service: MarketService;
  stop(): Promise<void>;
}

export { DEFAULT_TRANSFER_FEE };

/** The escrow's books at a block the node has: balance and nonce read at one height. */
async function booksNow(rpc: RpcClient, escrow: string, chainId: string): Promise<Books> {
  return waitFor(`a read of ${escrow} at a stable height`, 30_000, async () => {
    const a = (await rpc.status()).height;
    const account = await rpc.balance(escrow);
    const block = await rpc.block(a);
    if ((await rpc.status()).height !== a) return null;
    return {
      chain_id: chainId,
      escrow,
      cursor: a,
      balance: account.balance,
      next_nonce: account.nonce,
      chain_time: block.header.timestamp,
    };
  });
}

/** The market's service over its store, its metrics counting what it pays; the store closed again if it cannot open. */
async function openService(
  c: MarketConfig,
  store: MarketStore,
  metrics: MarketMetrics,
  escrow: EscrowSigner,
  rpc: RpcClient,
) {
  try {
    const service = await MarketService.open(
      store,
      escrow,
      c.rules,
      () => booksNow(rpc, escrow.address, escrow.chainId),
      {
        paid: (p) => {
          metrics.payouts.inc({ share: p.share });
          metrics.payoutWei.inc({ share: p.share }, Number(p.amount));
        },
        warn: (msg, fields) => c.logger.warn(msg, fields),
      },
    );
    for (const [share, { count, wei }] of Object.entries(service.paid())) {
      metrics.payouts.inc({ share }, count);
      metrics.payoutWei.inc({ share }, Number(wei));
    }
    return service;
  } catch (e) {
    await store.close();
    throw e;
  }
}

/** Why writes cannot be judged by the chain now (a 503's detail), or null. */
const unavailability = (c: MarketConfig, follower: Follower) => (): string | null => {
  if (!follower.reachable) return `Chain not reachable: the market cannot reach its node at ${c.rpcUrl}`;
  if (follower.lag > c.maxLagBlocks)
    return `Catching up with the chain: ${follower.lag} blocks behind its node`;
  return null;
};

/** Listens on the configured host and port; the URL it answers on. */
async function listen(server: Server, c: MarketConfig): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(c.port, c.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return `http://${address.address}:${address.port}`;
}

export async function startMarket(c: MarketConfig): Promise<RunningMarket> {
  const log = c.logger;
  const privateKey = await readKeyFile(c.keyFile);
  const escrowAddress = accountAddressOf(publicKeyHexOf(privateKey));
  // One node or several (comma-separated): the next while one gives no answer (client/failover.ts).
  const rpc = failoverRpc(
    c.rpcUrl
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== ''),
    10_000,
    (to, from, why) => log.warn('the market follows another node', { to, from, why }),
  );
  const status = await waitFor(`the node at ${c.rpcUrl}`, 120_000, () => rpc.status(), { pollMs: 500 });
  await mkdir(c.home, { recursive: true });
  const store = await MarketStore.open(join(c.home, 'market-data'));
  const metrics = createMarketMetrics();
  const escrow = { address: escrowAddress, privateKey, chainId: status.chain_id, fee: c.fee };
  const service = await openService(c, store, metrics, escrow, rpc);

  const crashAfterSends = status.network === 'devnet' ? c.crashAfterSends : null;
  if (c.crashAfterSends !== null && crashAfterSends === null)
    log.warn('the test crash point is honoured on a devnet chain only: ignored', { network: status.network });
  const payer = new Payer(rpc, service, log, { window: 32, resendMs: 5_000, crashAfterSends });
  const follower = new Follower(rpc, service, log, { pollMs: c.pollMs, maxBlocksPerPoll: 50 }, () => {
    void payer.run();
  });
  metrics.readFrom({
    taskCounts: () => service.taskCounts(),
    followedHeight: () => service.books.cursor,
    followLag: () => follower.lag,
    floatWei: () => service.float(),
    unpaidPayouts: () => service.unpaid().length,
  });

  const app = createMarketApp(
    { service, rpc, metrics, logger: log, unavailable: unavailability(c, follower) },
    { ...DEFAULT_MARKET_HTTP, fundingWaitMs: c.fundingWaitMs },
  );
  const server: Server = createRpcServer(app, DEFAULT_MARKET_HTTP);
  // The first poll before the first answer: writes are judged by a fresh chain time.
  await follower.poll();
  follower.start();
  void payer.run();
  const resend = setInterval(() => void payer.run(), 1_000);
  const url = await listen(server, c);
  log.info('market listening', { url, escrow: escrowAddress, chain_id: status.chain_id, node: c.rpcUrl });

  return {
    url,
    service,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      clearInterval(resend);
      await follower.stop();
      await payer.run();
      await store.close();
    },
  };
}

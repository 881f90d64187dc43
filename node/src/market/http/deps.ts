/** What the market's HTTP API is made of (app.ts): its service, its node, its gate on writes, its metrics and logger, and its bounds. */
import { DEFAULT_RPC_OPTIONS, type RpcOptions } from '@chain-devnet/kit/http';
import type { Logger } from '@chain-devnet/kit/log';
import type { RpcClient } from '../../client/rpcClient.js';
import type { MarketMetrics } from '../../metrics/market.js';
import type { MarketService } from '../service.js';

/** The node RPC's bounds (body, lingering, request time), and the wait for a task's funding. */
export interface MarketHttpOptions extends RpcOptions {
  /** How long POST /tasks waits for its funding to be final before answering 503 (retry). */
  readonly fundingWaitMs: number;
}

export const DEFAULT_MARKET_HTTP: MarketHttpOptions = { ...DEFAULT_RPC_OPTIONS, fundingWaitMs: 20_000 };

export interface MarketHttpDeps {
  readonly service: MarketService;
  /** Sends the funding and reads receipts. */
  readonly rpc: RpcClient;
  /** Null when the market can judge writes by the chain; else why not (a 503's detail). */
  readonly unavailable: () => string | null;
  readonly metrics: MarketMetrics;
  readonly logger: Logger;
}

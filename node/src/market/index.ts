/**
 * The task market as a program uses it (`@chain-devnet/node/market`): its client, the shape of
 * every answer, the terms and statements a creator and a worker sign, the split, the sample
 * worker's result (docs/MARKET.md).
 */

// Its metrics, for whoever checks the names a dashboard queries.
export { createMarketMetrics } from '../metrics/market.js';
export type * from './answers.js';
export * from './challenges.js';
export * from './claims.js';
export * from './client.js';
export * from './split.js';
export * from './terms.js';
export { TASK_STATUSES, type TaskStatus } from './types.js';
export { sampleResultHash } from './worker.js';

/**
 * The settings of an HTTP JSON server on this edge (the node's RPC, the task market, the devnet's
 * panel): the largest body, how long a request may take to arrive, and the lingering close.
 */
import type { LingerBounds } from './lingeringClose.js';

export interface RpcOptions extends LingerBounds {
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes: number;
  /** A request (headers and body) not received in full within this time is answered 408. */
  readonly requestTimeoutMs: number;
}

/**
 * Lingering after an early answer: at most 5 s and 16 MiB (a 5 MiB upload finishes in either).
 * 30 s for a request of at most 64 KiB (Node's default is 5 minutes).
 */
export const DEFAULT_RPC_OPTIONS: RpcOptions = {
  maxBodyBytes: 64 * 1024,
  lingerMs: 5_000,
  lingerBytes: 16 * 1024 * 1024,
  requestTimeoutMs: 30_000,
};

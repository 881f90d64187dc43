/**
 * When a chunk of a shaped link is delivered: the model of a link as TCP sees it, pure (the
 * time and the random draws come in). Each chunk gets its own deadline from the moment it was
 * handed over, so chunks in flight never add their delays up (the pitfall of a sleep per chunk).
 *
 * - Rate: a token bucket per direction (the node's shared one, then the link's own), filled at the
 *   rate up to a burst of BURST_MS of it (at least one 16 KiB chunk); a chunk leaves the bucket
 *   when it has the tokens for all of its bytes.
 * - Latency and jitter: the one-way delay, plus or minus up to the jitter (uniform, netem's
 *   default), never below 0.
 * - Loss: a chunk is ceil(bytes / MSS) segments; if one of them is lost the chunk waits for its
 *   retransmission, one retransmission timeout later: Linux's, max(200 ms, RTT + 4 × jitter) with
 *   RTT taken as twice this direction's latency, doubled for every retransmission lost again (at
 *   most MAX_RETRANSMISSIONS). Nothing is dropped: TCP delivers every byte, late.
 * - Order: a chunk is never delivered before the one handed over before it (TCP's in-order
 *   delivery; a late chunk holds those behind it, head-of-line blocking). So jitter without
 *   reordering raises the mean delay a little above the latency, as on a real TCP link.
 */
import type { LinkCondition } from './conditions.js';

export const MSS_BYTES = 1448;
export const MIN_RTO_MS = 200;
export const MAX_RETRANSMISSIONS = 6;
export const BURST_MS = 10;
export const MIN_BURST_BYTES = 16 * 1024;

/** A token bucket: its tokens (bytes) at the time `at` (ms). */
export interface Bucket {
  tokens: number;
  at: number;
}

export const newBucket = (): Bucket => ({ tokens: Number.POSITIVE_INFINITY, at: Number.NEGATIVE_INFINITY });

/** When a chunk of `bytes` handed over at `t` leaves a bucket filled at `rateBps`; takes its tokens. */
export function leaveBucket(b: Bucket, rateBps: number, t: number, bytes: number): number {
  const perMs = rateBps / 8000;
  const burst = Math.max(MIN_BURST_BYTES, perMs * BURST_MS);
  const start = Math.max(t, b.at);
  const tokens = Math.min(
    burst,
    b.at === Number.NEGATIVE_INFINITY ? burst : b.tokens + (start - b.at) * perMs,
  );
  if (tokens >= bytes) {
    b.tokens = tokens - bytes;
    b.at = start;
    return start;
  }
  b.tokens = 0;
  b.at = start + (bytes - tokens) / perMs;
  return b.at;
}

/** One direction of one connection: its own bucket and the last delivery time (for order). */
export interface LinkState {
  readonly bucket: Bucket;
  lastAt: number;
}

export const newLinkState = (): LinkState => ({ bucket: newBucket(), lastAt: Number.NEGATIVE_INFINITY });

/** The retransmission delay a chunk of `bytes` waits for under `c` (0: none of it lost). */
export function retransmissionDelay(c: LinkCondition, bytes: number, random: () => number): number {
  if (c.loss <= 0) return 0;
  const segments = Math.max(1, Math.ceil(bytes / MSS_BYTES));
  if (random() >= 1 - (1 - c.loss) ** segments) return 0;
  let rto = Math.max(MIN_RTO_MS, 2 * c.latencyMs + 4 * c.jitterMs);
  let delay = rto;
  // The retransmitted segment may be lost again (one segment now).
  for (let i = 1; i < MAX_RETRANSMISSIONS && random() < c.loss; i++) {
    rto *= 2;
    delay += rto;
  }
  return delay;
}

/**
 * When a chunk of `bytes` handed over at `now` is delivered on a link in `c`, with the link's
 * state and the node's shared bucket of this direction; updates both.
 */
export function deliveryAt(
  c: LinkCondition,
  state: LinkState,
  shared: Bucket,
  now: number,
  bytes: number,
  random: () => number,
): number {
  let t = now;
  if (c.sharedRateBps !== null) t = leaveBucket(shared, c.sharedRateBps, t, bytes);
  if (c.linkRateBps !== null) t = leaveBucket(state.bucket, c.linkRateBps, t, bytes);
  let delay = c.latencyMs;
  if (c.jitterMs > 0) delay += (random() * 2 - 1) * c.jitterMs;
  delay = Math.max(0, delay) + retransmissionDelay(c, bytes, random);
  const at = Math.max(t + delay, state.lastAt);
  state.lastAt = at;
  return at;
}

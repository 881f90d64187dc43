/**
 * TEST ONLY (fault injection): the link probe, which measures what a link's conditions do
 * (docs/PROTOCOL.md, "Network conditions"). One request/response exchange on PROBE_PROTOCOL,
 * its first byte the kind:
 *   0 echo: up to 64 bytes more, answered as they are (the round trip);
 *   1 up:   any bytes more, answered with their count, 4 bytes big-endian (a transfer to the peer);
 *   2 down: a count, 4 bytes big-endian, up to MAX_PROBE_BYTES, answered with that many zero
 *           bytes (a transfer from the peer).
 * A transfer's time includes one round trip (the request out, the answer back); its rate is the
 * bytes over the time less the round trip. Served only by a node with --fault-injection: on a
 * node without, a stranger could make it send megabytes for a few bytes.
 */
import type { P2PNetwork } from './network.js';
import { MAX_PROBE_BYTES, PROBE_PROTOCOL } from './protocol.js';

export { MAX_PROBE_BYTES };

const MAX_ECHO_BYTES = 64;
const ECHO = 0;
const UP = 1;
const DOWN = 2;
/** Round trips measured; the median is kept (one slow turn of a busy machine does not count). */
const ROUND_TRIPS = 3;

export interface ProbeResult {
  readonly rttMs: number;
  readonly bytes: number;
  /** Null when `bytes` is 0 (no transfer asked). */
  readonly upMs: number | null;
  readonly upBps: number | null;
  readonly downMs: number | null;
  readonly downBps: number | null;
}

const count = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const countOf = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0);

/** The probe's answer to `request`; throws on a malformed one (the stream is then aborted). */
export function probeAnswer(request: Uint8Array): Uint8Array {
  const kind = request[0];
  if (kind === ECHO && request.length <= 1 + MAX_ECHO_BYTES) return request.subarray(1);
  if (kind === UP) return count(request.length - 1);
  if (kind === DOWN && request.length === 5) {
    const n = countOf(request, 1);
    if (n <= MAX_PROBE_BYTES) return new Uint8Array(n);
  }
  throw new Error('not a probe request');
}

export async function serveProbe(net: Pick<P2PNetwork, 'serveConversation'>): Promise<void> {
  await net.serveConversation(PROBE_PROTOCOL, async (request) => probeAnswer(request));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Bits a second of `bytes` moved in `ms` of which `rttMs` was the round trip (at least 1 ms of transfer). */
const rateOf = (bytes: number, ms: number, rttMs: number) =>
  Math.round((bytes * 8000) / Math.max(1, ms - rttMs));

/** Measures the link to `peer`: the round trip, then `bytes` up and `bytes` down (0: none). */
export async function probePeer(
  net: Pick<P2PNetwork, 'converse'>,
  peer: string,
  bytes: number,
  timeoutMs: number,
  now: () => number = () => performance.now(),
): Promise<ProbeResult> {
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_PROBE_BYTES)
    throw new RangeError(`bytes must be a whole number from 0 to ${MAX_PROBE_BYTES}`);
  return net.converse(peer, PROBE_PROTOCOL, timeoutMs, (ask) => measured(ask, bytes, now));
}

/** The probe's exchanges on one stream: the round trips, then the transfers. */
async function measured(
  ask: (request: Uint8Array) => Promise<Uint8Array>,
  bytes: number,
  now: () => number,
): Promise<ProbeResult> {
  const timed = async (request: Uint8Array) => {
    const t0 = now();
    const answer = await ask(request);
    return { ms: now() - t0, answer };
  };
  // The stream's first exchange pays its opening; not measured.
  await ask(new Uint8Array([ECHO]));
  const rtts: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) rtts.push((await timed(new Uint8Array([ECHO, i]))).ms);
  const rttMs = median(rtts);
  if (bytes === 0) return { rttMs, bytes, upMs: null, upBps: null, downMs: null, downBps: null };
  const upRequest = new Uint8Array(1 + bytes);
  upRequest[0] = UP;
  const up = await timed(upRequest);
  if (up.answer.length !== 4 || countOf(up.answer, 0) !== bytes)
    throw new Error('the peer did not count the bytes sent to it');
  const down = await timed(new Uint8Array([DOWN, ...count(bytes)]));
  if (down.answer.length !== bytes)
    throw new Error(`the peer sent ${down.answer.length} bytes, not ${bytes}`);
  return {
    rttMs,
    bytes,
    upMs: up.ms,
    upBps: rateOf(bytes, up.ms, rttMs),
    downMs: down.ms,
    downBps: rateOf(bytes, down.ms, rttMs),
  };
}

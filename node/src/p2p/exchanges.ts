/**
 * The request/response protocols of the p2p network (P2PNetwork's serve, request,
 * serveConversation and converse): one length-prefixed request and its answer a stream (block
 * sync, state sync), or many on one stream (the link probe). A one-way partition (fault
 * injection: `deafTo`) keeps a peer's requests and answers from this node.
 */

import type { Logger } from '@chain-devnet/kit/log';
import { withDeadline } from '@chain-devnet/kit/values';
import type { Libp2p, Stream } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import * as lp from 'it-length-prefixed';
import { lpStream } from 'it-length-prefixed-stream';
import type { Services } from './libp2pNode.js';
import { MAX_MESSAGE_BYTES } from './protocol.js';

/** What the exchanges need of the network. */
export interface ExchangeParts {
  readonly node: Libp2p<Services>;
  readonly logger: Logger;
  /** Whether a one-way partition keeps `peer`'s messages from this node. */
  deafTo(peer: string): boolean;
}

/** Reads a stream to its end, keeping nothing. */
async function drain(source: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of source);
}

/**
 * Handles `protocol`'s streams with `use`; a stream of a peer this node is deaf to (a one-way
 * partition) never arrives: it is read to its end, unanswered, until the peer gives up.
 */
function handleHeard(
  parts: ExchangeParts,
  protocol: string,
  use: (stream: Stream, from: string) => Promise<void>,
): Promise<void> {
  return parts.node.handle(protocol, async ({ stream, connection }) => {
    const from = connection.remotePeer.toString();
    if (parts.deafTo(from)) return void (await drain(stream.source).catch(() => undefined));
    await use(stream, from);
  });
}

/** Serves a request/response protocol: one length-prefixed request, one length-prefixed response. */
export function serve(
  parts: ExchangeParts,
  protocol: string,
  handler: (request: Uint8Array, from: string) => Promise<Uint8Array>,
): Promise<void> {
  return handleHeard(parts, protocol, async (stream, from) => {
    try {
      for await (const chunk of lp.decode(stream.source, { maxDataLength: MAX_MESSAGE_BYTES })) {
        const response = await handler(chunk.subarray(), from);
        await stream.sink(lp.encode([response]));
        break;
      }
    } catch (e) {
      parts.logger.debug('request failed', { protocol, error: (e as Error).message });
      stream.abort(e as Error);
    }
  });
}

/**
 * Serves a protocol of many exchanges on one stream (the link probe): each length-prefixed
 * request answered in turn until the peer closes it.
 */
export function serveConversation(
  parts: ExchangeParts,
  protocol: string,
  handler: (request: Uint8Array, from: string) => Promise<Uint8Array>,
): Promise<void> {
  return handleHeard(parts, protocol, async (stream, from) => {
    const talk = lpStream(stream, { maxDataLength: MAX_MESSAGE_BYTES });
    try {
      for (;;) await talk.write(await handler((await talk.read()).subarray(), from));
    } catch (e) {
      // The peer's close ends the conversation (an end of stream), anything else aborts it.
      if (!/unexpected end of input|end of stream/i.test((e as Error).message)) stream.abort(e as Error);
    }
  });
}

/**
 * A stream to `peer` on `protocol` for `use`, all within one deadline: the dial, the exchanges
 * and the close. A peer that accepts the stream and never answers must not hold the caller
 * (block sync runs one catch-up at a time, so a hung request stalled a node's sync for good). It
 * is a hard deadline: libp2p honours the signal at most steps, not all (opening a stream records
 * the protocol in the peer store without it), and a node once stayed in its sync for over 60 s.
 */
function withStream<T>(
  parts: ExchangeParts,
  peer: string,
  protocol: string,
  timeoutMs: number,
  use: (stream: Stream, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const late = `no answer within ${timeoutMs} ms`;
  return withDeadline(timeoutMs, late, async (signal) => {
    const stream: Stream = await parts.node.dialProtocol(peerIdFromString(peer), protocol, { signal });
    const onTimeout = () => stream.abort(new Error(late));
    signal.addEventListener('abort', onTimeout, { once: true });
    try {
      // A stream opened after the deadline is dropped at once.
      if (signal.aborted) {
        stream.abort(new Error(late));
        throw new Error(late);
      }
      return await use(stream, signal);
    } finally {
      signal.removeEventListener('abort', onTimeout);
      await stream.close({ signal }).catch(() => undefined);
    }
  });
}

/**
 * One stream to `peer` for many exchanges, within one deadline: `talk` asks (a request, its
 * answer) as often as it likes, and no exchange after the first pays the stream's opening and
 * its protocol's negotiation (the link probe's round trips).
 */
export function converse<T>(
  parts: ExchangeParts,
  peer: string,
  protocol: string,
  timeoutMs: number,
  talk: (ask: (request: Uint8Array) => Promise<Uint8Array>) => Promise<T>,
): Promise<T> {
  return withStream(parts, peer, protocol, timeoutMs, (stream, signal) => {
    const framed = lpStream(stream, { maxDataLength: MAX_MESSAGE_BYTES });
    return talk(async (request) => {
      await framed.write(request, { signal });
      return (await framed.read({ signal })).subarray();
    });
  });
}

/** One length-prefixed request and its answer, within one deadline (withStream). */
export function request(
  parts: ExchangeParts,
  peer: string,
  protocol: string,
  request: Uint8Array,
  timeoutMs = 10_000,
): Promise<Uint8Array> {
  return withStream(parts, peer, protocol, timeoutMs, async (stream, signal) => {
    await stream.sink(lp.encode([request]));
    // A one-way partition loses the peer's answer: it went, and never arrives.
    if (parts.deafTo(peer)) await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    for await (const chunk of lp.decode(stream.source, { maxDataLength: MAX_MESSAGE_BYTES }))
      return chunk.subarray();
    throw new Error('no response');
  });
}

/**
 * The one file that reaches into libraries' internals: fields that are not in their documented
 * API (gossipsub's per-peer outbound streams, mesh and fanout; kad-dht's table refresher;
 * @koa/router's matched route) and gossipsub's wire frame written by hand. p2p/ and http/ use
 * them only through here. Each use is pinned by tests/unit/internals/libraryInternals.test.ts against
 * the versions below: an upgrade of any of these libraries fails that test with a message naming
 * what to check, rather than breaking the node quietly.
 */
import type { GossipSub } from '@chainsafe/libp2p-gossipsub';
import { RPC } from '@chainsafe/libp2p-gossipsub/message';
import type Koa from 'koa';

/** The versions whose internals this file was written against (node/package.json pins them exactly). */
export const PINNED_VERSIONS = {
  '@chainsafe/libp2p-gossipsub': '14.1.2',
  '@libp2p/kad-dht': '15.1.11',
  '@koa/router': '15.7.0',
} as const;

/** Whether gossipsub has its outbound stream to `peer` open (what it sends on a stream not yet there is dropped). */
export function hasOutboundStream(pubsub: GossipSub, peer: string): boolean {
  return pubsub.streamsOutbound.has(peer);
}

/** How many peers are in gossipsub's mesh of `topic`. */
export function meshSize(pubsub: GossipSub, topic: string): number {
  return pubsub.mesh.get(topic)?.size ?? 0;
}

/** Forgets the fanout peers gossipsub picked for `topic`, so that its next publish picks afresh. */
export function forgetFanout(pubsub: GossipSub, topic: string): void {
  pubsub.fanout.delete(topic);
}

/** Sending one message to chosen peers, which gossipsub's API has no call for (fault injection only). */
export interface GossipFrames {
  /** The peers subscribed to `topic`. */
  subscribers(topic: string): string[];
  /**
   * Writes, on gossipsub's outbound stream to `peer` (none: nothing), the RPC frame publish() itself
   * would send for an unsigned (StrictNoSign) message: `{messages: [{topic, data}]}`.
   */
  pushFrame(peer: string, topic: string, data: Uint8Array): void;
}

export function gossipFrames(pubsub: GossipSub): GossipFrames {
  return {
    subscribers: (topic) => pubsub.getSubscribers(topic).map((p) => p.toString()),
    pushFrame: (peer, topic, data) =>
      pubsub.streamsOutbound.get(peer)?.push(RPC.encode({ subscriptions: [], messages: [{ topic, data }] })),
  };
}

/**
 * kad-dht (15.x) takes no option for its table refresh period: it is set on the refresher before
 * the node starts. False when the field is not there (another kad-dht).
 */
export function setTableRefreshInterval(dht: unknown, ms: number): boolean {
  const refresh = (dht as { routingTableRefresh?: { refreshInterval?: unknown } }).routingTableRefresh;
  if (typeof refresh?.refreshInterval !== 'number') return false;
  refresh.refreshInterval = ms;
  return true;
}

/** The route @koa/router matched for this request (its pattern, e.g. `/block/:height`); undefined when none did. */
export function matchedRoute(ctx: Koa.Context): string | undefined {
  return (ctx as unknown as { _matchedRoute?: string })._matchedRoute;
}

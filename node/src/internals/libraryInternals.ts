/**
 * The one file of the node that reaches into libraries' internals: fields that are not in their
 * documented API (gossipsub's per-peer outbound streams, mesh and fanout; kad-dht's table
 * refresher; yamux's window updates) and gossipsub's wire frame written by hand. p2p/ uses them
 * only through here (the kit's HTTP edge has its one, @koa/router's matched route:
 * kit/src/http/routerInternals.ts). Each use is pinned by tests/unit/internals/libraryInternals.test.ts against
 * the versions below: an upgrade of any of these libraries fails that test with a message naming
 * what to check, rather than breaking the node quietly.
 */
import type { GossipSub } from '@chainsafe/libp2p-gossipsub';
import { RPC } from '@chainsafe/libp2p-gossipsub/message';
import type { yamux } from '@chainsafe/libp2p-yamux';
import { StreamState, type YamuxStream } from '@chainsafe/libp2p-yamux/stream';

/** The versions whose internals this file was written against (node/package.json pins them exactly). */
export const PINNED_VERSIONS = {
  '@chainsafe/libp2p-gossipsub': '14.1.2',
  '@chainsafe/libp2p-yamux': '7.0.4',
  '@libp2p/kad-dht': '15.1.11',
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

/**
 * Keeps what peers for whom `deaf(peer)` holds send from reaching gossipsub's handling (TEST ONLY:
 * one-way partitions, p2p/network.ts): their RPCs' messages and their IHAVE, IWANT and IDONTWANT
 * gossip are dropped before gossipsub sees them, so a message first heard from such a peer is not
 * marked seen and is taken when another peer sends it. Subscriptions, GRAFT and PRUNE still pass:
 * the peers stay connected and meshed, as over a link that loses every message one way. Wraps
 * gossipsub's handleReceivedRpc(from, rpc), the one place each received RPC goes through.
 */
export function dropReceivedFrom(pubsub: GossipSub, deaf: (peer: string) => boolean): void {
  const inner = pubsub as unknown as {
    handleReceivedRpc(from: { toString(): string }, rpc: RPC): Promise<void>;
  };
  const handle = inner.handleReceivedRpc.bind(pubsub);
  inner.handleReceivedRpc = (from, rpc) => {
    if (!deaf(from.toString())) return handle(from, rpc);
    const heard: RPC = { ...rpc, messages: [] };
    if (rpc.control !== undefined) heard.control = { ...rpc.control, ihave: [], iwant: [], idontwant: [] };
    return handle(from, heard);
  };
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

type YamuxFactory = ReturnType<typeof yamux>;

/** What of a yamux stream `halfWindowUpdates` reads and wraps: fields not in its typed API. */
interface StreamWindow {
  state: StreamState;
  recvWindow: number;
  recvWindowCapacity: number;
  sendWindowUpdate(): void;
}

/**
 * Yamux (7.x) tells the sender of a stream that it may send more (a WINDOW_UPDATE frame) after
 * each chunk the reader takes, however little: every gossip message a node receives was answered
 * by a 12-byte frame, encrypted, written, read and decrypted, as many frames as the messages
 * themselves (docs/BENCHMARKS.md, "Half the frames were window updates"). The yamux spec leaves
 * the moment to the receiver; rust-yamux and go-yamux send one once half of the window or more has
 * been taken. So does this: a stream's window update is sent when it opens or acknowledges (its
 * flags ride on it) and when its unread-credit has fallen to half its window or below; the sender
 * then still has the other half to send on, so a busy stream never waits for credit. The frames on
 * the wire are yamux's own, in the order the spec allows: any yamux peer reads them.
 */
export function halfWindowUpdates(make: YamuxFactory): YamuxFactory {
  return (components) => {
    const factory = make(components);
    const createStreamMuxer = factory.createStreamMuxer.bind(factory);
    factory.createStreamMuxer = (init) => {
      const muxer = createStreamMuxer(init) as unknown as {
        _newStream(...args: unknown[]): YamuxStream;
      };
      const newStream = muxer._newStream.bind(muxer);
      muxer._newStream = (...args) => {
        const stream = newStream(...args);
        const w = stream as unknown as StreamWindow;
        const send = w.sendWindowUpdate.bind(stream);
        w.sendWindowUpdate = () => {
          const opening = w.state === StreamState.Init || w.state === StreamState.SYNReceived;
          if (opening || w.recvWindowCapacity <= w.recvWindow / 2) send();
        };
        return stream;
      };
      return muxer as unknown as ReturnType<typeof factory.createStreamMuxer>;
    };
    return factory;
  };
}

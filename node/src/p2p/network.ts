/**
 * The peer-to-peer network over js-libp2p: TCP, noise, yamux, identify, bootstrap peers, a
 * Kademlia DHT for discovery, gossipsub for the topics and a request/response protocol for
 * block sync. Everything libp2p is behind this class; the rest of the node sees bytes,
 * topics, peer ids and verdicts.
 *
 * Gossip messages are not signed by libp2p (StrictNoSign): their payloads carry validator
 * signatures already. Message ids are SHA-256 of the data, so a re-sent identical message is
 * dropped as a duplicate and a re-sent message with new bytes is not.
 */
import './polyfill.js';
import { createHash } from 'node:crypto';
import { type GossipSub, type GossipsubMessage, gossipsub } from '@chainsafe/libp2p-gossipsub';
import { RPC } from '@chainsafe/libp2p-gossipsub/message';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { bootstrap } from '@libp2p/bootstrap';
import { identify } from '@libp2p/identify';
import type { Libp2p, PeerId, Stream, TopicValidatorResult } from '@libp2p/interface';
import { kadDHT, removePublicAddressesMapper } from '@libp2p/kad-dht';
import { peerIdFromString } from '@libp2p/peer-id';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import * as lp from 'it-length-prefixed';
import { createLibp2p } from 'libp2p';
import { withDeadline } from '../util/deadline.js';
import type { Logger } from '../util/logger.js';
import type { PeerKey } from './peerKey.js';
import { type PeerRefusal, REFUSE_NONE, refuses } from './peerRefusal.js';
import { DHT_PROTOCOL, MAX_MESSAGE_BYTES } from './protocol.js';

/**
 * How often a node dials the bootstrap peers it has lost (plus up to half again, at random), and
 * how long each dial may take: handshakes take seconds while 21 nodes start on 2 cores, and a
 * dial cut short wastes the work done on both sides.
 */
const REDIAL_MS = 10_000;
const REDIAL_TIMEOUT_MS = 10_000;
/** How long a peer that subscribed is waited for to have our gossip stream open (onTopicPeerJoined). */
const JOIN_STREAM_WAIT_MS = 3000;

/**
 * libp2p pings every connection and closes the ones whose ping fails. Its defaults (every 10 s,
 * failed after 5 s) broke a 21-validator devnet on 2 cores: a node starved of CPU for a few
 * seconds lost its connections, the redials' handshakes and subscriptions starved everyone
 * further, and the closures spread until heights took 10 s and more (hundreds of closed
 * connections a minute; docs/BENCHMARKS.md). A ping now fails after 10–12 s, and the next one
 * starts only after that (two pings in flight on a connection also close it), so a dead peer is
 * still found within about 27 s. The answering side waits as long for the ping's bytes.
 */
const CONNECTION_MONITOR = {
  pingInterval: 15_000,
  pingTimeout: { minTimeout: 10_000, maxTimeout: 12_000 },
} as const;

/**
 * kad-dht refreshes its routing table and looks itself up every 5 minutes, starting from when
 * the node started. A devnet starts its nodes together, so every node did both at the same
 * moment: each looks up several keys through all of its peers, and in a 21-validator devnet on
 * 2 cores those thousands of streams at once cost heights of 4 s, failed pings and closed
 * connections in the fifth minute (docs/BENCHMARKS.md). Each node now keeps its own period,
 * 3.75–6.25 minutes, and its first self-lookup waits 2–5 s, after a devnet's first blocks.
 */
const DHT_PERIOD_MS = 5 * 60_000;
const jittered = (ms: number, spread: number) => Math.round(ms * (1 - spread / 2 + Math.random() * spread));

/**
 * kad-dht (15.x) takes no option for its table refresh period: it is set on the refresher before
 * the node starts. False when the field is not there (another kad-dht), said in a warning.
 */
export function staggerTableRefresh(dht: unknown): boolean {
  const refresh = (dht as { routingTableRefresh?: { refreshInterval?: unknown } }).routingTableRefresh;
  if (typeof refresh?.refreshInterval !== 'number') return false;
  refresh.refreshInterval = jittered(DHT_PERIOD_MS, 0.5);
  return true;
}

export type Verdict = 'accept' | 'ignore' | 'reject';

export interface NetworkOptions {
  readonly privateKey: PeerKey;
  readonly listenHost: string;
  readonly listenPort: number;
  /** What peers are told to dial (NodeConfig.p2pAnnounce); empty: the listen addresses. */
  readonly announce?: readonly string[];
  /** Multiaddrs with /p2p/<peer id> of peers to join through. */
  readonly bootstrap: readonly string[];
  readonly logger: Logger;
}

type Services = { pubsub: GossipSub; identify: unknown; ping: unknown; dht: unknown };

export class P2PNetwork {
  private readonly handlers = new Map<
    string,
    (data: Uint8Array, from: string) => Verdict | Promise<Verdict>
  >();

  private stopped = false;
  /** The peers refused (fault injection), read by the connection gater. */
  private refusal: PeerRefusal = REFUSE_NONE;
  private redialTimer: NodeJS.Timeout | null = null;
  /** Peers this node has been connected to: the bootstrap peers among them are redialled when lost. */
  private readonly everConnected = new Set<string>();
  /** Bootstrap peers with a redial in flight. */
  private readonly dialling = new Set<string>();

  private constructor(
    private readonly node: Libp2p<Services>,
    private readonly logger: Logger,
    /** The bootstrap peers, parsed once: their addresses and peer ids. */
    private readonly bootstrapPeers: readonly { addr: Multiaddr; id: string }[],
  ) {}

  static async start(o: NetworkOptions): Promise<P2PNetwork> {
    const bootstrapPeers = o.bootstrap.map((addr) => {
      try {
        const ma = multiaddr(addr);
        const id = ma.getPeerId();
        if (id === null) throw new Error('no /p2p/<peer id>');
        return { addr: ma, id };
      } catch (e) {
        throw new Error(
          `bootstrap peer ${addr} is not a multiaddr with /p2p/<peer id>: ${(e as Error).message}`,
        );
      }
    });
    const announce = o.announce ?? [];
    for (const addr of announce)
      try {
        if (multiaddr(addr).getPeerId() !== null) throw new Error('it names a peer id (/p2p/…)');
      } catch (e) {
        throw new Error(`announce address ${addr} is not a multiaddr without /p2p/: ${(e as Error).message}`);
      }
    // Peers this node refuses (fault injection: disconnect and partition), set by setRefused.
    let net: P2PNetwork | null = null;
    const denied = async (peer: PeerId) => net?.refuses(peer.toString()) ?? false;
    const node = await createLibp2p({
      // Started below, once the DHT's table refresh is staggered.
      start: false,
      privateKey: o.privateKey as never,
      connectionGater: {
        denyDialPeer: denied,
        denyInboundEncryptedConnection: denied,
        denyOutboundEncryptedConnection: denied,
      },
      addresses: { listen: [`/ip4/${o.listenHost}/tcp/${o.listenPort}`], announce: [...announce] },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      peerDiscovery: o.bootstrap.length > 0 ? [bootstrap({ list: [...o.bootstrap], timeout: 100 })] : [],
      connectionManager: { maxConnections: 200 },
      connectionMonitor: CONNECTION_MONITOR,
      services: {
        identify: identify(),
        ping: ping({ timeout: CONNECTION_MONITOR.pingTimeout.maxTimeout }),
        dht: kadDHT({
          protocol: DHT_PROTOCOL,
          clientMode: false,
          initialQuerySelfInterval: 2000 + Math.round(Math.random() * 3000),
          querySelfInterval: jittered(DHT_PERIOD_MS, 0.5),
          peerInfoMapper: removePublicAddressesMapper,
        }) as never,
        pubsub: gossipsub({
          globalSignaturePolicy: 'StrictNoSign',
          // Computed for every copy received (about three per transaction): OpenSSL's SHA-256.
          msgIdFn: (m) => createHash('sha256').update(m.data).digest(),
          allowPublishToZeroTopicPeers: true,
          // A node publishes to its mesh (at least D peers), not to every peer: with 21
          // validators a vote sent to all 20 peers and then relayed by the mesh reaches each node
          // more often than the mesh alone, and every copy is decrypted, decoded and hashed; on 2
          // cores at 1 s blocks those copies were the difference between keeping up and missing
          // slots (docs/BENCHMARKS.md). With at most D peers, as in a 4-validator network,
          // every peer still receives each message straight from its publisher.
          floodPublish: false,
          // A smaller mesh than gossipsub's default (D 6, up to 12): each mesh peer forwards a
          // message it has not seen from us, so a node reads about as many copies of every vote
          // as it has mesh peers. 3–6 peers keep a 21-validator network within 3 hops and every
          // node on several paths, with about half the copies.
          D: 4,
          Dlo: 3,
          Dhi: 6,
          Dout: 2,
          emitSelf: false,
          maxInboundDataLength: MAX_MESSAGE_BYTES,
          heartbeatInterval: 700,
          // Verdicts are reported by `validate` below, which forwards a message to the mesh
          // peers that did not already send it to us.
          asyncValidation: true,
          // Gossipsub's default peer score penalizes every peer when more than 10 share one IP
          // address, by 5 × (surplus)²: with 21 validators of a devnet on 127.0.0.1 (or behind
          // one NAT), each node scored all of its peers about -500, dropped every message they
          // sent (graylist, -80), published to none (-50) and kept none in its mesh (< 0), and
          // no block was ever decided. The penalty guards open networks against Sybil peers;
          // here every gossip message carries a validator's signature, checked by the node.
          scoreParams: { IPColocationFactorWeight: 0 },
        }),
      },
    });
    net = new P2PNetwork(node as unknown as Libp2p<Services>, o.logger, bootstrapPeers);
    net.node.services.pubsub.addEventListener('gossipsub:message', (e) => net.validate(e.detail));
    if (!staggerTableRefresh(node.services.dht))
      o.logger.warn('kad-dht has no refreshInterval to stagger: every node refreshes at the same moment');
    await node.start();
    net.watchPeers();
    net.scheduleRedial();
    return net;
  }

  get peerId(): string {
    return this.node.peerId.toString();
  }

  multiaddrs(): string[] {
    return this.node.getMultiaddrs().map((m) => m.toString());
  }

  connectedPeers(): string[] {
    return this.node.getPeers().map((p) => p.toString());
  }

  /**
   * Gossipsub's score of each peer it has a stream with. Below 0 a peer leaves the mesh (its
   * messages are no longer forwarded through it), below -50 nothing is published to it, below
   * -80 everything it sends is dropped.
   */
  peerScores(): Map<string, number> {
    const pubsub = this.node.services.pubsub;
    return new Map(pubsub.getPeers().map((p) => [p.toString(), pubsub.getScore(p.toString())]));
  }

  private watchPeers(): void {
    this.node.addEventListener('peer:connect', (e) => {
      this.everConnected.add(e.detail.toString());
      this.logger.info('peer connected', { peer: e.detail.toString() });
    });
    this.node.addEventListener('peer:disconnect', (e) =>
      this.logger.info('peer disconnected', { peer: e.detail.toString() }),
    );
  }

  /**
   * Calls `onJoin` when a peer subscribes to `topic`. Messages published before a peer's
   * subscription reached us never went to it (gossipsub sends only to known subscribers), so a
   * node that starts together with its peers re-sends what it has at once rather than at the
   * next periodic rebroadcast.
   */
  onTopicPeerJoined(topic: string, onJoin: (peer: string) => void): void {
    const pubsub = this.node.services.pubsub;
    pubsub.addEventListener('subscription-change', (e) => {
      if (!e.detail.subscriptions.some((s) => s.topic === topic && s.subscribe)) return;
      const peer = e.detail.peerId.toString();
      // A peer's subscription can arrive before our own stream to it is open, and gossipsub
      // drops what it would send on a stream not yet there: a node that started last missed the
      // first block's messages and fetched the block a second later. So wait for the stream.
      const started = Date.now();
      const whenWritable = () => {
        if (this.stopped || Date.now() - started > JOIN_STREAM_WAIT_MS) return;
        if (pubsub.streamsOutbound.has(peer)) onJoin(peer);
        else setTimeout(whenWritable, 10);
      };
      whenWritable();
    });
  }

  /**
   * Subscribes to `topic`. `onMessage` decodes, checks and handles each new message, and its
   * verdict tells gossipsub whether to pass it on (accept), drop it (ignore) or also penalize
   * the peer that sent it (reject). A handler that throws counts as reject.
   */
  subscribe(topic: string, onMessage: (data: Uint8Array, from: string) => Verdict | Promise<Verdict>): void {
    this.handlers.set(topic, onMessage);
    this.node.services.pubsub.subscribe(topic);
  }

  /**
   * A new message (not a copy of one seen before) waits for the next turn of the event loop
   * before its handler runs: the copies that other peers forwarded meanwhile are then known to
   * gossipsub, which does not send the message back to them when it forwards it. With 4
   * validators all connected to each other, a node then receives about 2.3 copies of each
   * transaction instead of 3, and sends fewer (a copy sent or received costs about a tenth of a
   * signature check).
   */
  private validate({ msgId, msg, propagationSource }: GossipsubMessage): void {
    const from = propagationSource.toString();
    const pubsub = this.node.services.pubsub;
    setImmediate(async () => {
      let verdict: Verdict = 'ignore';
      const handler = this.handlers.get(msg.topic);
      try {
        if (handler !== undefined) verdict = await handler(msg.data, from);
      } catch (e) {
        this.logger.warn('gossip message refused', {
          topic: msg.topic,
          peer: from,
          error: (e as Error).message,
        });
        verdict = 'reject';
      }
      pubsub.reportMessageValidationResult(msgId, from, verdict as TopicValidatorResult);
    });
  }

  async publish(topic: string, data: Uint8Array): Promise<void> {
    const pubsub = this.node.services.pubsub;
    // Until the first heartbeat grafts a mesh, gossipsub publishes to a "fanout" of the topic's
    // peers picked at the first publish, and keeps it: at start-up that was the one or two peers
    // subscribed by then, and the peers that subscribed next (whom the driver re-sends to) got
    // nothing until the mesh formed and the next periodic re-send, a second later. Without a
    // mesh, each publish picks afresh from every subscribed peer.
    if ((pubsub.mesh.get(topic)?.size ?? 0) === 0) pubsub.fanout.delete(topic);
    try {
      await pubsub.publish(topic, data);
    } catch (e) {
      // Publishing with no peer, or a duplicate, is not an error for the node.
      this.logger.debug('publish skipped', { topic, error: (e as Error).message });
    }
  }

  /**
   * TEST ONLY (chain-node --byzantine): sends `versions[i]` to the i-th share of the topic's
   * subscribed peers (sorted by peer id), so that different peers receive different messages
   * first. Gossipsub has no "publish to these peers"; this writes, on gossipsub's outbound stream
   * to each peer (its public `streamsOutbound`), the RPC that publish() itself would send for an
   * unsigned (StrictNoSign) message: `{messages: [{topic, data}]}`. Each peer validates and
   * forwards its version like any message. An honest node never calls it.
   */
  publishSplit(topic: string, versions: readonly Uint8Array[]): void {
    const pubsub = this.node.services.pubsub;
    const peers = pubsub
      .getSubscribers(topic)
      .map((p) => p.toString())
      .sort();
    peers.forEach((peer, i) => {
      const data = versions[Math.floor((i * versions.length) / peers.length)]!;
      try {
        pubsub.streamsOutbound
          .get(peer)
          ?.push(RPC.encode({ subscriptions: [], messages: [{ topic, data }] }));
      } catch (e) {
        this.logger.debug('split publish skipped a peer', { peer, error: (e as Error).message });
      }
    });
  }

  /** Serves a request/response protocol: one length-prefixed request, one length-prefixed response. */
  async serve(
    protocol: string,
    handler: (request: Uint8Array, from: string) => Promise<Uint8Array>,
  ): Promise<void> {
    await this.node.handle(protocol, async ({ stream, connection }) => {
      try {
        for await (const chunk of lp.decode(stream.source, { maxDataLength: MAX_MESSAGE_BYTES })) {
          const response = await handler(chunk.subarray(), connection.remotePeer.toString());
          await stream.sink(lp.encode([response]));
          break;
        }
      } catch (e) {
        this.logger.debug('request failed', { protocol, error: (e as Error).message });
        stream.abort(e as Error);
      }
    });
  }

  request(peer: string, protocol: string, request: Uint8Array, timeoutMs = 10_000): Promise<Uint8Array> {
    // One deadline for the whole exchange: the dial, the request, the answer and the close. A
    // peer that accepts the stream and never answers must not hold the caller (block sync runs
    // one catch-up at a time, so a hung request stalled a node's sync for good). It is a hard
    // deadline: libp2p honours the signal at most steps, not all (opening a stream records the
    // protocol in the peer store without it), and a node once stayed in its sync for over 60 s.
    const late = `no answer within ${timeoutMs} ms`;
    return withDeadline(timeoutMs, late, async (signal) => {
      const stream: Stream = await this.node.dialProtocol(peerIdFromString(peer), protocol, { signal });
      const onTimeout = () => stream.abort(new Error(late));
      signal.addEventListener('abort', onTimeout, { once: true });
      try {
        // A stream opened after the deadline is dropped at once.
        if (signal.aborted) {
          stream.abort(new Error(late));
          throw new Error(late);
        }
        await stream.sink(lp.encode([request]));
        for await (const chunk of lp.decode(stream.source, { maxDataLength: MAX_MESSAGE_BYTES }))
          return chunk.subarray();
        throw new Error('no response');
      } finally {
        await stream.close({ signal }).catch(() => undefined);
        signal.removeEventListener('abort', onTimeout);
      }
    });
  }

  /** Whether fault injection refuses `peer`. */
  refuses(peer: string): boolean {
    return refuses(this.refusal, peer);
  }

  /**
   * Replaces which peers are refused: connections to peers now refused are closed at once, and
   * bootstrap peers no longer refused are dialed again.
   */
  async setRefused(rule: PeerRefusal): Promise<void> {
    const before = this.refusal;
    this.refusal = rule;
    for (const p of this.connectedPeers())
      if (this.refuses(p)) await this.node.hangUp(peerIdFromString(p)).catch(() => undefined);
    for (const peer of this.bootstrapPeers)
      if (refuses(before, peer.id) && !this.refuses(peer.id)) await this.dialBootstrapPeer(peer);
    this.logger.info('blocked peers set', { allow_only: rule.allowOnly, peers: [...rule.peers] });
  }

  /**
   * Bootstrap peers are persistent peers (CometBFT's persistent_peers): every REDIAL_MS or so the
   * node dials those it was connected to and has lost. libp2p's bootstrap dials
   * them once, at start (and those first dials are left to it: dialling again the peers not yet
   * reached while 21 nodes start made the start-up slower). A connection lost at start-up used
   * to stay lost until kad-dht's refresh five minutes later dialled every missing peer of every
   * node at once, and those handshakes cost slots; a peer that restarted was not dialled again
   * by the nodes it did not list itself.
   */
  private scheduleRedial(): void {
    if (this.stopped || this.bootstrapPeers.length === 0) return;
    // Jittered, so that nodes started together do not dial together.
    this.redialTimer = setTimeout(
      () => {
        this.dialMissingBootstrapPeers();
        this.scheduleRedial();
      },
      REDIAL_MS * (1 + Math.random() / 2),
    );
  }

  /**
   * All at once, each with its own deadline, and the next pass on time whatever this one's dials
   * do: a dial that hangs (a peer's name resolves to an address that drops packets, as a Docker
   * container's does on the network it shares with its peers for published ports while its p2p
   * network is detached) must not hold back the next. One at a time, a node cut off from its
   * network spent 10 s per lost peer in each pass; waiting for a pass's slowest dial still put up
   * to 10 s more before the next pass, after the network came back. Only peers once connected
   * and since lost are dialled, so this is no burst at start-up; a peer whose dial is still in
   * flight is not dialled twice.
   */
  private dialMissingBootstrapPeers(): void {
    if (this.stopped) return;
    const connected = new Set(this.connectedPeers());
    for (const peer of this.bootstrapPeers)
      if (
        this.everConnected.has(peer.id) &&
        !connected.has(peer.id) &&
        !this.refuses(peer.id) &&
        !this.dialling.has(peer.id)
      ) {
        this.dialling.add(peer.id);
        void this.dialBootstrapPeer(peer).finally(() => this.dialling.delete(peer.id));
      }
  }

  private async dialBootstrapPeer(peer: { addr: Multiaddr }): Promise<void> {
    const addr = peer.addr.toString();
    await this.node
      .dial(peer.addr, { signal: AbortSignal.timeout(REDIAL_TIMEOUT_MS) })
      .then(() => this.logger.debug('redialled a bootstrap peer', { addr }))
      .catch((e: Error) => this.logger.debug('redial failed', { addr, error: e.message }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.redialTimer !== null) clearTimeout(this.redialTimer);
    await this.node.stop();
  }
}

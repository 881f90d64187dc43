/**
 * The peer-to-peer network over js-libp2p: TCP, noise, yamux, identify, bootstrap peers, a
 * Kademlia DHT for discovery, gossipsub for the topics and a request/response protocol for
 * block sync (the libp2p node and its options: libp2pNode.ts). Everything libp2p is behind this
 * class and that file; the rest of the node sees bytes, topics, peer ids and verdicts.
 *
 * Gossip messages are not signed by libp2p (StrictNoSign): their payloads carry validator
 * signatures already. Message ids are SHA-256 of the data, so a re-sent identical message is
 * dropped as a duplicate and a re-sent message with new bytes is not.
 */
import './polyfill.js';
import type { Logger } from '@chain-devnet/kit/log';
import type { GossipsubMessage } from '@chainsafe/libp2p-gossipsub';
import type { Libp2p, TopicValidatorResult } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import {
  dropReceivedFrom,
  forgetFanout,
  type GossipFrames,
  gossipFrames,
  hasOutboundStream,
  meshSize,
} from '../internals/libraryInternals.js';
import { NODE_VERSION } from '../util/nodeVersion.js';
import { BootstrapRedial } from './bootstrapRedial.js';
import { converse, type ExchangeParts, request, serve, serveConversation } from './exchanges.js';
import { createLibp2pNode, type Services, staggerTableRefresh } from './libp2pNode.js';
import type { PeerKey } from './peerKey.js';
import { type PeerRefusal, REFUSE_NONE, refuses } from './peerRefusal.js';
import { P2P_VERSION } from './protocol.js';
import type { LinkShaping } from './shaping/linkShaping.js';
import { agentVersion, handshakeRefusal } from './versionCheck.js';

/** How long a peer that subscribed is waited for to have our gossip stream open (onTopicPeerJoined). */
const JOIN_STREAM_WAIT_MS = 3000;

export type Verdict = 'accept' | 'ignore' | 'reject';

/** Sends `versions[i]` to the i-th share of a topic's subscribed peers (TEST ONLY: faults/splitPublish.ts). */
export type SplitPublish = (topic: string, versions: readonly Uint8Array[]) => void;

export interface NetworkOptions {
  readonly privateKey: PeerKey;
  readonly listenHost: string;
  readonly listenPort: number;
  /** What peers are told to dial (NodeConfig.p2pAnnounce); empty: the listen addresses. */
  readonly announce?: readonly string[];
  /** Multiaddrs with /p2p/<peer id> of peers to join through. */
  readonly bootstrap: readonly string[];
  readonly logger: Logger;
  /** The node's build version, announced to peers (default NODE_VERSION). */
  readonly nodeVersion?: string;
  /** The p2p protocol version it announces (default P2P_VERSION; tests speak another). */
  readonly p2pVersion?: string;
  /**
   * The hash of the node's genesis, announced to peers; a peer announcing another is refused
   * (versionCheck.ts). Absent: none announced or checked (a tool, a test peer).
   */
  readonly genesisHash?: string;
  /**
   * TEST ONLY (fault injection): the shaping of its links and its one-way partitions
   * (shaping/linkShaping.ts); absent: links as they are, nothing of it in the path.
   */
  readonly shaping?: LinkShaping;
}

/**
 * What consensus sees of the network: topics to publish on and subscribe to, and its peers.
 * P2PNetwork is it over libp2p; the simulation's network (sim/simNetwork.ts) is it over a virtual
 * clock, so the driver runs unchanged on both.
 */
export type GossipPort = Pick<
  P2PNetwork,
  'subscribe' | 'publish' | 'publishSplit' | 'onTopicPeerJoined' | 'connectedPeers'
>;

/** What block and state sync see of the network: the peers, one request and its answer, the protocols served. */
export type SyncPort = Pick<P2PNetwork, 'connectedPeers' | 'request' | 'serve'>;

/** All a node's parts above the transport use of it (the simulation gives each node one). */
export type NodePort = GossipPort & SyncPort;

export class P2PNetwork {
  private readonly handlers = new Map<
    string,
    (data: Uint8Array, from: string) => Verdict | Promise<Verdict>
  >();

  private stopped = false;
  /** The peers refused (fault injection), read by the connection gater. */
  private refusal: PeerRefusal = REFUSE_NONE;
  /** TEST ONLY: the split publish fault injection armed (--byzantine); null on an honest node. */
  private splitPublish: SplitPublish | null = null;
  /** Peers refused at the handshake (an incompatible p2p version, another genesis), with the reason (versionCheck.ts). */
  private readonly incompatible = new Map<string, string>();

  private constructor(
    private readonly node: Libp2p<Services>,
    private readonly logger: Logger,
    /** The bootstrap peers, parsed once: their addresses and peer ids. */
    private readonly bootstrapPeers: readonly { addr: Multiaddr; id: string }[],
    private readonly p2pVersion: string,
    private readonly genesisHash: string | null,
    private readonly shaping: LinkShaping | null,
  ) {
    this.redial = new BootstrapRedial(bootstrapPeers, {
      dial: (addr, signal) => node.dial(addr, { signal }).then(() => undefined),
      connected: () => this.connectedPeers(),
      excluded: (peer) => this.refuses(peer) || this.incompatible.has(peer),
      logger,
    });
  }

  /** Dials the bootstrap peers it lost, and a few never reached (bootstrapRedial.ts). */
  private readonly redial: BootstrapRedial;

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
    const denied = async (peer: { toString(): string }) =>
      (net?.refuses(peer.toString()) || net?.incompatible.has(peer.toString())) ?? false;
    const p2pVersion = o.p2pVersion ?? P2P_VERSION;
    const genesisHash = o.genesisHash ?? null;
    const agent = agentVersion(o.nodeVersion ?? NODE_VERSION, p2pVersion, genesisHash);
    const node = await createLibp2pNode({ ...o, agentVersion: agent }, announce, denied);
    net = new P2PNetwork(node, o.logger, bootstrapPeers, p2pVersion, genesisHash, o.shaping ?? null);
    const shaping = o.shaping;
    if (shaping !== undefined) dropReceivedFrom(node.services.pubsub, (peer) => shaping.deafTo(peer));
    net.node.services.pubsub.addEventListener('gossipsub:message', (e) => net.validate(e.detail));
    if (!staggerTableRefresh(node.services.dht))
      o.logger.warn('kad-dht has no refreshInterval to stagger: every node refreshes at the same moment');
    await node.start();
    net.watchPeers();
    net.redial.start();
    return net;
  }

  get peerId(): string {
    return this.node.peerId.toString();
  }

  multiaddrs(): string[] {
    return this.node.getMultiaddrs().map((m) => m.toString());
  }

  /** Peers with a connection, each once: from the connections' peer ids (getPeers() re-decodes each; docs/BENCHMARKS.md, issue 29). */
  connectedPeers(): string[] {
    return [...new Set(this.node.getConnections().map((c) => c.remotePeer.toString()))];
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
      this.redial.connected(e.detail.toString());
      this.logger.info('peer connected', { peer: e.detail.toString() });
    });
    this.node.addEventListener('peer:identify', (e) => {
      const peer = e.detail.peerId.toString();
      const refusal = handshakeRefusal(e.detail.agentVersion, this.p2pVersion, this.genesisHash);
      if (refusal === null || this.incompatible.has(peer)) return;
      if (this.incompatible.size >= 1000) this.incompatible.delete(this.incompatible.keys().next().value!);
      this.incompatible.set(peer, refusal.reason);
      this.logger.warn(refusal.message, {
        peer,
        agent_version: (e.detail.agentVersion ?? '').slice(0, 100),
        reason: refusal.reason,
      });
      void this.node.hangUp(e.detail.peerId).catch(() => undefined);
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
        if (hasOutboundStream(pubsub, peer)) onJoin(peer);
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
    if (meshSize(pubsub, topic) === 0) forgetFanout(pubsub, topic);
    try {
      await pubsub.publish(topic, data);
    } catch (e) {
      // Publishing with no peer, or a duplicate, is not an error for the node.
      this.logger.debug('publish skipped', { topic, error: (e as Error).message });
    }
  }

  /**
   * TEST ONLY (chain-node --byzantine): arms publishSplit with the fault injection's split publish
   * (faults/splitPublish.ts), made from the gossip frames gossipsub's API does not offer.
   */
  armSplitPublish(make: (frames: GossipFrames) => SplitPublish): void {
    this.splitPublish = make(gossipFrames(this.node.services.pubsub));
  }

  /**
   * TEST ONLY (chain-node --byzantine): sends `versions[i]` to the i-th share of the topic's
   * subscribed peers, so that different peers receive different messages first. An honest node
   * never calls it; only an armed one can (armSplitPublish).
   */
  publishSplit(topic: string, versions: readonly Uint8Array[]): void {
    if (this.splitPublish === null)
      throw new Error('publishSplit is fault injection (--byzantine): armSplitPublish was not called');
    this.splitPublish(topic, versions);
  }

  /** Serves a request/response protocol: one length-prefixed request, one length-prefixed response. */
  serve(
    protocol: string,
    handler: (request: Uint8Array, from: string) => Promise<Uint8Array>,
  ): Promise<void> {
    return serve(this.exchangeParts, protocol, handler);
  }

  /** Serves a protocol of many exchanges on one stream (exchanges.ts). */
  serveConversation(
    protocol: string,
    handler: (request: Uint8Array, from: string) => Promise<Uint8Array>,
  ): Promise<void> {
    return serveConversation(this.exchangeParts, protocol, handler);
  }

  /** One stream to `peer` for many exchanges within one deadline (exchanges.ts). */
  converse<T>(
    peer: string,
    protocol: string,
    timeoutMs: number,
    talk: (ask: (request: Uint8Array) => Promise<Uint8Array>) => Promise<T>,
  ): Promise<T> {
    return converse(this.exchangeParts, peer, protocol, timeoutMs, talk);
  }

  /** One request and its answer within one deadline (exchanges.ts). */
  request(peer: string, protocol: string, message: Uint8Array, timeoutMs = 10_000): Promise<Uint8Array> {
    return request(this.exchangeParts, peer, protocol, message, timeoutMs);
  }

  private get exchangeParts(): ExchangeParts {
    return { node: this.node, logger: this.logger, deafTo: (peer) => this.deafTo(peer) };
  }

  /** Peers refused at the handshake (an incompatible p2p protocol version, another genesis), with the reason. */
  incompatiblePeers(): ReadonlyMap<string, string> {
    return this.incompatible;
  }

  /** Whether a one-way partition keeps `peer`'s messages from this node (fault injection). */
  private deafTo(peer: string): boolean {
    return this.shaping?.deafTo(peer) ?? false;
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
      if (refuses(before, peer.id) && !this.refuses(peer.id)) await this.redial.dial(peer);
    this.logger.info('blocked peers set', { allow_only: rule.allowOnly, peers: [...rule.peers] });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.redial.stop();
    await this.node.stop();
  }
}

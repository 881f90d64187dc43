/**
 * The libp2p node under P2PNetwork, with every option the node sets and why: TCP, noise, yamux,
 * identify, bootstrap peers, ping, a Kademlia DHT for discovery, and gossipsub for the topics.
 * Returned not started: the DHT's table refresh is staggered first (staggerTableRefresh).
 */
import './polyfill.js';
import { createHash } from 'node:crypto';
import { type GossipSub, gossipsub } from '@chainsafe/libp2p-gossipsub';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { bootstrap } from '@libp2p/bootstrap';
import { identify } from '@libp2p/identify';
import type { Libp2p, PeerId } from '@libp2p/interface';
import { kadDHT, removePublicAddressesMapper } from '@libp2p/kad-dht';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { createLibp2p } from 'libp2p';
import { halfWindowUpdates, setTableRefreshInterval } from '../internals/libraryInternals.js';
import type { PeerKey } from './peerKey.js';
import { DHT_PROTOCOL, MAX_MESSAGE_BYTES } from './protocol.js';
import type { LinkShaping } from './shaping/linkShaping.js';
import { shapingEncrypter } from './shaping/shapingEncrypter.js';

export type Services = { pubsub: GossipSub; identify: unknown; ping: unknown; dht: unknown };

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
 * 3.75–6.25 minutes.
 *
 * Its first self-lookup (kad-dht's default: 1 s after start; 2–5 s here before) comes 30–60 s
 * after start, each node at its own moment: at start it had every node of a 21-validator devnet
 * dial, handshake with and query peers beyond its bootstrap list while all were still booting,
 * and the devnet's first final block came twice as late (docs/BENCHMARKS.md, "The DHT's first
 * lookup, later"). Until then a node's peers are its bootstrap list and those that dial it, which
 * is all gossip and block sync need.
 */
const DHT_PERIOD_MS = 5 * 60_000;
const jittered = (ms: number, spread: number) => Math.round(ms * (1 - spread / 2 + Math.random() * spread));
/** 30–60 s: when a node first looks itself up in the DHT after it starts. */
const firstSelfLookupMs = () => jittered(45_000, 2 / 3);

/**
 * kad-dht (15.x) takes no option for its table refresh period: it is set on the refresher before
 * the node starts. False when the field is not there (another kad-dht), said in a warning.
 */
export function staggerTableRefresh(dht: unknown): boolean {
  return setTableRefreshInterval(dht, jittered(DHT_PERIOD_MS, 0.5));
}

/**
 * Gossipsub's options, each chosen for a devnet of validators on one machine (the reasons below);
 * a fresh object for every node (the threads runtime runs many in one process).
 */
const gossipsubOptions = (): Parameters<typeof gossipsub>[0] => ({
  globalSignaturePolicy: 'StrictNoSign',
  // Computed for every copy received (about three per transaction): OpenSSL's SHA-256.
  msgIdFn: (m) => createHash('sha256').update(m.data).digest(),
  // The id's string, gossipsub's key for it in its caches (never sent): its default, base64
  // by multiformats in JS, was 1.5% of a 21-validator node's busy time at 1 s blocks
  // (docs/BENCHMARKS.md); Node's own encoder does the same in native code.
  msgIdToStrFn: (id) => Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString('base64'),
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
  // Gossip beside the mesh: at each heartbeat a node tells some peers outside its mesh the
  // ids of the messages it has seen (IHAVE), and they ask for those they lack (IWANT). It
  // repairs a mesh that lost a message; here the mesh delivers every vote, the consensus
  // re-sends while a height waits, and block sync serves a node that fell behind. With
  // gossipsub's defaults (6 peers or a quarter of the others, every id in three heartbeats'
  // IHAVEs, a heartbeat every 0.7 s as this node had it) each node sent every id to its
  // non-mesh peers about 18 times, with 21 validators a tenth of the transport's CPU: 2
  // peers, each id once, a heartbeat a second (gossipsub's and the spec's default) took the
  // CPU of 21 validators' traffic alone from 0.75-0.81 to 0.66-0.69 cores
  // (node/bench/gossipFloor.ts) and a 21-validator devnet's from 1.11 to 1.07 cores, 5 runs
  // side by side (docs/BENCHMARKS.md, "The transport's floor"). A network of up to D + 1
  // nodes has no peer outside the mesh: none of this changes it.
  Dlazy: 2,
  gossipFactor: 0.1,
  mcacheGossip: 1,
  heartbeatInterval: 1000,
  emitSelf: false,
  maxInboundDataLength: MAX_MESSAGE_BYTES,
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
});

export async function createLibp2pNode(
  o: {
    readonly privateKey: PeerKey;
    readonly listenHost: string;
    readonly listenPort: number;
    readonly bootstrap: readonly string[];
    /** Identify's agent version (versionCheck.ts: carries the node's and the p2p versions). */
    readonly agentVersion: string;
    /** TEST ONLY (fault injection): the shaping of its links (null: none, nothing in the path). */
    readonly shaping?: LinkShaping | null;
  },
  announce: readonly string[],
  /** Whether a peer is refused (the connection gater). */
  denied: (peer: PeerId) => Promise<boolean>,
): Promise<Libp2p<Services>> {
  const node = await createLibp2p({
    // Started by P2PNetwork.start, once the DHT's table refresh is staggered.
    start: false,
    privateKey: o.privateKey as never,
    connectionGater: {
      denyDialPeer: denied,
      denyInboundEncryptedConnection: denied,
      denyOutboundEncryptedConnection: denied,
    },
    addresses: { listen: [`/ip4/${o.listenHost}/tcp/${o.listenPort}`], announce: [...announce] },
    transports: [tcp()],
    connectionEncrypters: [o.shaping ? shapingEncrypter(noise(), o.shaping) : noise()],
    streamMuxers: [halfWindowUpdates(yamux())],
    peerDiscovery: o.bootstrap.length > 0 ? [bootstrap({ list: [...o.bootstrap], timeout: 100 })] : [],
    connectionManager: { maxConnections: 200 },
    connectionMonitor: CONNECTION_MONITOR,
    services: {
      identify: identify({ agentVersion: o.agentVersion }),
      ping: ping({ timeout: CONNECTION_MONITOR.pingTimeout.maxTimeout }),
      dht: kadDHT({
        protocol: DHT_PROTOCOL,
        clientMode: false,
        initialQuerySelfInterval: firstSelfLookupMs(),
        querySelfInterval: jittered(DHT_PERIOD_MS, 0.5),
        peerInfoMapper: removePublicAddressesMapper,
      }) as never,
      pubsub: gossipsub(gossipsubOptions()),
    },
  });
  return node as unknown as Libp2p<Services>;
}

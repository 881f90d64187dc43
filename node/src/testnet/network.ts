/**
 * The one network generator: every key, port, peer and the genesis of a network from a seed,
 * used by `chain-node testnet`, `chain-node init` (a network of one) and the devnet's spec. The
 * same seed gives the same network in all three, so their nodes and accounts agree. Pure and
 * deterministic, but for the peer identities, whose derivation (libp2p's) is asynchronous.
 *
 * Keys by label under the seed (privateKeyFromSeed): a node by its name (validator-i by
 * default), developer account i as account-i, a named extra account as account:NAME. A node's
 * peer key is derived from the seed and its name (nodePeerKey), so peer ids are known before any
 * node starts. Genesis: the funded accounts, then each validator's own account with 10,000 coins
 * for its fees (UNJAIL, UPDATE_VALIDATOR…), and the validators with their stake. The genesis starts
 * at the newest protocol version this build runs unless told another (docs/RULES.md, "Migrations of
 * this build"): from 1.2.0 on, the chain's state names its genesis.
 */
import {
  coins,
  type GenesisJson,
  NETWORK_PARAMS,
  NEWEST_PROTOCOL_VERSION,
  type NetworkId,
} from '../chain/index.js';
import { hexToBytes } from '../crypto/hex.js';
import { privateKeyFromSeed } from '../crypto/keys.js';
import { type KeyFile, keyFileOf } from '../home/keyFile.js';
import type { NodeFile } from '../home/nodeFile.js';
import { nodePeerKey, type PeerKey, peerIdOf } from '../p2p/peerKey.js';
import { type NodePorts, nodePorts } from './ports.js';
import { dialedIndexes } from './topology.js';

export const DEVELOPER_BALANCE = coins(1_000_000);
export const VALIDATOR_ACCOUNT_BALANCE = coins(10_000);

export interface ValidatorOptions {
  /** Default validator-i. */
  readonly name?: string;
  /** Self-stake in wei; default 10 x the network's minimum stake. */
  readonly stake?: bigint;
  /** A rate from 0 to 1; default: the network's. */
  readonly commissionRate?: number;
}

export interface ExtraAccountOptions {
  readonly name: string;
  readonly balance: bigint;
  /** Default: from the seed, label account:NAME. */
  readonly privateKey?: Uint8Array;
}

export interface NetworkOptions {
  readonly seed: string;
  /** A count (validator-0 … validator-(N-1)) or a list. */
  readonly validators: number | readonly ValidatorOptions[];
  /** Funded developer accounts account-0 …, 1,000,000 coins each. */
  readonly developerAccounts: number;
  readonly extraAccounts?: readonly ExtraAccountOptions[];
  /** Node i: RPC on basePort + i, p2p on basePort + 1000 + i. */
  readonly basePort: number;
  /** Seconds since the epoch. */
  readonly genesisTime: number;
  /** Default devnet. */
  readonly network?: NetworkId;
  readonly chainId?: string;
  /** Genesis parameters by their genesis names (docs/RULES.md), e.g. { block_time_ms: 500 }. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** The genesis protocol_version; default NEWEST_PROTOCOL_VERSION (a network with older builds needs 1.0.0). */
  readonly protocolVersion?: string;
}

export interface NetworkNode extends NodePorts {
  readonly name: string;
  readonly index: number;
  /** In the genesis validator set (false for a node added later, until it stakes). */
  readonly genesisValidator: boolean;
  readonly key: KeyFile;
  /** Genesis self-stake in wei, or null for a node that is not a genesis validator (unless given). */
  readonly stake: bigint | null;
}

export interface NetworkAccount {
  readonly name: string;
  readonly key: KeyFile;
  readonly balance: bigint;
}

export interface Network {
  readonly seed: string;
  readonly basePort: number;
  readonly nodes: readonly NetworkNode[];
  /** The developer accounts, then the extra ones. */
  readonly accounts: readonly NetworkAccount[];
  readonly genesis: GenesisJson;
}

const seedBytes = (seed: string) => new TextEncoder().encode(seed);

/** The key of a node or account labelled `label` under `seed`. */
export function keyFromSeed(seed: string, label: string): KeyFile {
  return keyFileOf(privateKeyFromSeed(seedBytes(seed), label));
}

/** Node `index` of a network: its key from the seed and its name, its ports from the base. */
export function networkNode(
  seed: string,
  basePort: number,
  index: number,
  name: string,
  stake: bigint | null,
  genesisValidator: boolean,
): NetworkNode {
  return {
    name,
    index,
    genesisValidator,
    key: keyFromSeed(seed, name),
    stake,
    ...nodePorts(basePort, index),
  };
}

export function generateNetwork(o: NetworkOptions): Network {
  const network = o.network ?? 'devnet';
  const listed: readonly ValidatorOptions[] =
    typeof o.validators === 'number' ? Array.from({ length: o.validators }, () => ({})) : o.validators;
  const defaultStake = NETWORK_PARAMS[network].minStake * 10n;
  const nodes = listed.map((v, i) =>
    networkNode(o.seed, o.basePort, i, v.name ?? `validator-${i}`, v.stake ?? defaultStake, true),
  );
  const accounts: NetworkAccount[] = [
    ...Array.from({ length: o.developerAccounts }, (_, i) => ({
      name: `account-${i}`,
      key: keyFromSeed(o.seed, `account-${i}`),
      balance: DEVELOPER_BALANCE,
    })),
    ...(o.extraAccounts ?? []).map((a) => ({
      name: a.name,
      key: a.privateKey === undefined ? keyFromSeed(o.seed, `account:${a.name}`) : keyFileOf(a.privateKey),
      balance: a.balance,
    })),
  ];
  const genesis: GenesisJson = {
    network,
    ...(o.chainId === undefined ? {} : { chain_id: o.chainId }),
    genesis_time: o.genesisTime,
    protocol_version: o.protocolVersion ?? NEWEST_PROTOCOL_VERSION,
    params: { ...o.params },
    accounts: [
      ...accounts.map((a) => ({ address: a.key.address, balance: a.balance.toString() })),
      ...nodes.map((n) => ({ address: n.key.address, balance: VALIDATOR_ACCOUNT_BALANCE.toString() })),
    ],
    validators: nodes.map((n, i) => {
      const rate = listed[i]?.commissionRate;
      return {
        pub_key: n.key.pub_key,
        stake: n.stake!.toString(),
        name: n.name,
        ...(rate === undefined ? {} : { commission_rate: rate }),
      };
    }),
  };
  return { seed: o.seed, basePort: o.basePort, nodes, accounts, genesis };
}

/** The private key of a generated node or account, as bytes. */
export function privateKeyOf(key: KeyFile): Uint8Array {
  return hexToBytes(key.private_key, 32);
}

/** The peer key of node `name` in the network of `seed`. */
export function peerKeyOf(seed: string, name: string): Promise<PeerKey> {
  return nodePeerKey(seedBytes(seed), name);
}

/** What a node needs to know of a peer to dial it. */
export interface Peer {
  readonly name: string;
  readonly peerId: string;
  readonly p2pPort: number;
}

/** The peers of `nodes` (name, peer id, p2p port) in the network of `seed`. */
export async function peersOf(seed: string, nodes: readonly NetworkNode[]): Promise<Peer[]> {
  return Promise.all(
    nodes.map(async (n) => ({
      name: n.name,
      peerId: peerIdOf(await peerKeyOf(seed, n.name)),
      p2pPort: n.p2pPort,
    })),
  );
}

/** The RPC and p2p ports of a node in a container: every container has its own address. */
export const CONTAINER_PORTS: NodePorts = { rpcPort: 8000, p2pPort: 9000 };

/**
 * Where nodes listen and how they reach each other: all on one host (the ports of the plan), or
 * each in its own container (CONTAINER_PORTS on 0.0.0.0, a peer found by its DNS name).
 */
export type Addressing =
  | { readonly host: string }
  | { readonly containers: true; readonly dnsName: (node: string) => string };

/** A peer's multiaddr as `addressing` reaches it. */
export function peerAddress(p: Peer, addressing: Addressing): string {
  return 'host' in addressing
    ? `/ip4/${addressing.host}/tcp/${p.p2pPort}/p2p/${p.peerId}`
    : `/dns4/${addressing.dnsName(p.name)}/tcp/${CONTAINER_PORTS.p2pPort}/p2p/${p.peerId}`;
}

/**
 * The node.json of `node`: its ports and addresses, and the peers it dials as bootstrap peers
 * (every other peer of a small network, a few of a large one: topology.ts).
 */
export function nodeFileOf(
  node: NodePorts & { readonly name: string },
  peers: readonly Peer[],
  addressing: Addressing,
): NodeFile {
  const ports = 'host' in addressing ? node : CONTAINER_PORTS;
  const host = 'host' in addressing ? addressing.host : '0.0.0.0';
  return {
    port: ports.rpcPort,
    p2p_port: ports.p2pPort,
    host,
    p2p_host: host,
    // A container is also on a network its peers cannot reach (the docker runtime's published
    // ports): its name is the one address they all can.
    ...('host' in addressing
      ? {}
      : { p2p_announce: [`/dns4/${addressing.dnsName(node.name)}/tcp/${CONTAINER_PORTS.p2pPort}`] }),
    bootstrap: dialedPeers(node.name, peers).map((p) => peerAddress(p, addressing)),
  };
}

/** The peers node `name` dials, in `peers`' order of the network (a node not among them dials all). */
function dialedPeers(name: string, peers: readonly Peer[]): Peer[] {
  const me = peers.findIndex((p) => p.name === name);
  if (me < 0) return [...peers];
  return dialedIndexes(me, peers.length).map((i) => peers[i]!);
}

/**
 * The one interface between the devnet and whatever runs its nodes. Nothing outside runtime/
 * spawns a process or talks to Docker. A runtime is rebuilt from the devnet's home folder by
 * every command (the devnet outlives the command that made it), so it keeps no state in memory
 * that it cannot find again: the process runtime reads pid files, the docker and swarm runtimes
 * find their containers and services by label.
 *
 * It speaks of nodes, machines and endpoints, never of what a runtime is built on: a Kubernetes
 * runtime would implement it as it is (`devnet k8s` writes manifests for the same devnet today).
 */
import type { Writable } from 'node:stream';
import type { Peer } from '@chain-devnet/node/testnet';
import type { NetworkSpec, NodeSpec } from '../spec/networkSpec.js';

export type RuntimeKind = 'process' | 'docker' | 'swarm';

export type NodeRunState = 'running' | 'paused' | 'stopped' | 'absent';

/** A node to start: its spec, its prepared home folder on the host, and every peer it may dial. */
export interface NodeLaunch {
  readonly node: NodeSpec;
  /** Host folder holding genesis.json, p2p_key and (for validators) validator_key.json. */
  readonly home: string;
  readonly peers: readonly PeerInfo[];
  /** The machine the manifest places the node on (multi-machine runtimes); null: the runtime chooses. */
  readonly placement: string | null;
}

/** Where a started node is reached, and where its ports are published. */
export interface NodeEndpoint {
  /** Its RPC (and /metrics) as this machine reaches it, e.g. http://127.0.0.1:8000. */
  readonly rpc: string;
  /** The machine it runs on (multi-machine runtimes), or null: this one. */
  readonly machine: string | null;
  /** For people: where its ports are published and on which addresses. */
  readonly published: string;
}

/** A peer a node may dial: its name, peer id and p2p port (the node package's network generator). */
export type PeerInfo = Peer;

export interface MonitoringEndpoints {
  readonly prometheus: string | null;
  readonly grafana: string | null;
  /** Lines for people: what was skipped and why, what to install. */
  readonly notes: readonly string[];
}

export interface LogOptions {
  readonly follow: boolean;
  readonly tail: number | null;
  readonly signal?: AbortSignal;
}

export type Progress = (line: string) => void;

/**
 * A program run beside the nodes: `chain-market ARGS` (the task market, its sample worker;
 * docs/MARKET.md). Once started, stopNode, nodeState and logs take its name as a node's, and
 * teardown removes it with the rest.
 */
export interface ServiceLaunch {
  readonly name: string;
  /** Host folder holding what it reads (its key file); its data lives under it too. */
  readonly home: string;
  /** Its HTTP port, published on 127.0.0.1 (the same number inside a container); null: none. */
  readonly port: number | null;
  /** chain-market's arguments, given where this runtime puts `home` and how it reaches the others. */
  args(reach: ServiceReach): string[];
}

/** How a service started by a runtime sees the devnet. */
export interface ServiceReach {
  /** Where the service's `home` is, as the service sees it. */
  readonly home: string;
  /** The address it listens on. */
  readonly host: string;
  /** A node's RPC URL, as the service reaches it. */
  rpc(node: NodeSpec): string;
  /** Another service's URL, as this one reaches it. */
  service(name: string, port: number): string;
}

export interface Runtime {
  readonly kind: RuntimeKind;
  /** Checks what the runtime needs (engine, image, built node) and gets it ready. */
  prepare(progress: Progress): Promise<void>;
  /** Creates (first time) and starts a node; its RPC answers at its endpoint afterwards. */
  startNode(launch: NodeLaunch): Promise<void>;
  /** Where the node (started at least once) is reached. */
  endpoint(node: NodeSpec): Promise<NodeEndpoint>;
  /** SIGTERM, then SIGKILL after a grace period. */
  stopNode(name: string): Promise<void>;
  /** SIGKILL at once: a crash. */
  killNode(name: string): Promise<void>;
  pauseNode(name: string): Promise<void>;
  resumeNode(name: string): Promise<void>;
  /** Cuts the node off from every other node (its RPC stays reachable from the host). */
  disconnectNode(name: string, all: readonly PeerInfo[]): Promise<void>;
  connectNode(name: string, all: readonly PeerInfo[]): Promise<void>;
  /**
   * Splits the network into groups of node names: a node of a group then talks only to the nodes
   * of its group, and a node in no group (one added later) to no grouped node; null heals it. RPC
   * stays reachable. disconnectNode is independent of it: a node cut off stays cut off when a
   * partition heals.
   */
  partition(groups: readonly (readonly string[])[] | null, all: readonly PeerInfo[]): Promise<void>;
  nodeState(name: string): Promise<NodeRunState>;
  /** Whether the node is cut off by disconnectNode. */
  isDisconnected(name: string): Promise<boolean>;
  logs(name: string, options: LogOptions, out: Writable): Promise<void>;
  /** Creates (first time) and starts a service beside the nodes. */
  startService(s: ServiceLaunch): Promise<void>;
  /** Where a service's published port answers from this machine (a swarm's: on its manager). */
  serviceUrl(port: number): Promise<string>;
  startMonitoring(
    spec: NetworkSpec,
    nodes: readonly NodeSpec[],
    progress: Progress,
  ): Promise<MonitoringEndpoints>;
  /** Removes everything the devnet made, on every machine it used. Returns what it removed. */
  teardown(keepData: boolean): Promise<string[]>;
}

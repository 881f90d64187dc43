/**
 * The one interface between the devnet and whatever runs its nodes. Nothing outside runtime/
 * spawns a process or talks to Docker. A runtime is rebuilt from the devnet's home folder by
 * every command (the devnet outlives the command that made it), so it keeps no state in memory
 * that it cannot find again: the process runtime reads pid files, the docker runtime finds its
 * containers by label.
 */
import type { Writable } from 'node:stream';
import type { Peer } from '@chain-devnet/node/testnet';
import type { NetworkSpec, NodeSpec } from '../spec/networkSpec.js';

export type RuntimeKind = 'process' | 'docker';

export type NodeRunState = 'running' | 'paused' | 'stopped' | 'absent';

/** A node to start: its spec, its prepared home folder on the host, and every peer it may dial. */
export interface NodeLaunch {
  readonly node: NodeSpec;
  /** Host folder holding genesis.json, p2p_key and (for validators) validator_key.json. */
  readonly home: string;
  readonly peers: readonly PeerInfo[];
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

export interface Runtime {
  readonly kind: RuntimeKind;
  /** Checks what the runtime needs (engine, image, built node) and gets it ready. */
  prepare(progress: Progress): Promise<void>;
  /** Creates (first time) and starts a node; its RPC answers on 127.0.0.1:rpcPort afterwards. */
  startNode(launch: NodeLaunch): Promise<void>;
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
  startMonitoring(
    spec: NetworkSpec,
    nodes: readonly NodeSpec[],
    progress: Progress,
  ): Promise<MonitoringEndpoints>;
  /** Removes every process, container, network and volume the devnet made. Returns what it removed. */
  teardown(keepData: boolean): Promise<string[]>;
}

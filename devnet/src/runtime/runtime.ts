/**
 * The one interface between the devnet and whatever runs its nodes. Nothing outside runtime/
 * spawns a process or talks to Docker. A runtime is rebuilt from the devnet's home folder by
 * every command (the devnet outlives the command that made it), so it keeps no state in memory
 * that it cannot find again: the process runtime reads pid files, the docker and swarm runtimes
 * find their containers and services by label.
 *
 * As zombienet-sdk's providers: a runtime (provider) gives a handle per node, `node(name)`, with
 * what is done to one node; what it cannot do it says in `capabilities()`. It speaks of nodes,
 * machines and endpoints, never of what a runtime is built on: a Kubernetes runtime would
 * implement it as it is (`devnet k8s` writes manifests for the same devnet today). Faults and
 * monitoring are written once over it (blockedPeers.ts, monitoring/monitors.ts).
 */
import type { Writable } from 'node:stream';
import type { Peer } from '@chain-devnet/node/testnet';
import type { SwarmDiscovery } from '../monitoring/prometheusConfig.js';
import type { NodeSpec } from '../spec/networkSpec.js';
import type { NodeBuild } from '../versions/source.js';
import type { DiskBackend, FillOp } from './dataDisk.js';

export type RuntimeKind = 'process' | 'threads' | 'docker' | 'swarm';

export type NodeRunState = 'running' | 'paused' | 'stopped' | 'absent';

/** Which chain-node a node runs (versions/source.ts). */
export type { NodeBuild } from '../versions/source.js';

/** A node to start: its spec, its prepared home folder on the host, and every peer it may dial. */
export interface NodeLaunch {
  readonly node: NodeSpec;
  /** The chain-node it runs. */
  readonly build: NodeBuild;
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

/** Told what the devnet just did to its nodes (a partition, a condition, a disk fault), for its timeline. */
export type Noted = (msg: string, fields: Readonly<Record<string, unknown>>) => void;

/**
 * What a service runs: chain-market (the task market, its sample worker; docs/MARKET.md), or a
 * monitor. The runtime knows where each program comes from (a binary on this machine, an image);
 * what it is given (arguments, environment, the files of its home) is decided once for every
 * runtime (market.ts, monitoring/monitors.ts).
 */
export type ServiceProgram = 'chain-market' | 'prometheus' | 'grafana';

/**
 * A program run beside the nodes. Once started, `node(name)` gives its handle (stop, state, logs)
 * as a node's, and teardown removes it with the rest.
 */
export interface ServiceLaunch {
  readonly name: string;
  readonly program: ServiceProgram;
  /** Host folder holding what it reads (a key file, a configuration); its data lives under it too. */
  readonly home: string;
  /** Its HTTP port, published on 127.0.0.1 (the same number inside a container); null: none. */
  readonly port: number | null;
  /** Its arguments, given where this runtime puts `home` and how it reaches the others. */
  args(reach: ServiceReach): string[];
  /** Its environment (beside the runtime's own), given the same. */
  env?(reach: ServiceReach): Readonly<Record<string, string>>;
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

/** Why a service did not start (its program is not to be had here), for people; null: it runs. */
export type ServiceSkipped = string | null;

/**
 * One node (or service) of the devnet, by name: what is done to it. A runtime finds the process,
 * container or service behind the name again each time (by pid file, by label).
 */
export interface NodeHandle {
  readonly name: string;
  /** Creates (first time) and starts the node; its RPC answers at its endpoint afterwards. */
  start(launch: NodeLaunch): Promise<void>;
  /**
   * Stops the node gracefully (as stop) and starts it again from `launch`, whose build may be
   * another version of chain-node, with the data it had (`devnet upgrade`). A node not running is
   * started so.
   */
  replace(launch: NodeLaunch): Promise<void>;
  /**
   * How the node's last run ended: its exit code once it exited by itself or was stopped; null
   * while it runs, or where the runtime cannot tell (the auto-upgrade supervisor reads it).
   */
  exitCode(): Promise<number | null>;
  /** Where the node (started at least once) is reached. */
  endpoint(node: NodeSpec): Promise<NodeEndpoint>;
  /** SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
  /** SIGKILL at once: a crash. */
  kill(): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  state(): Promise<NodeRunState>;
  logs(options: LogOptions, out: Writable): Promise<void>;
  /**
   * Puts `home/file` (the node's or service's home on this machine) where it reads its home (its
   * volume, its container); nothing where it reads that folder itself. One with nowhere to put it
   * yet (no container, not running) is skipped: it gets the file when it starts.
   */
  copyHomeFile(home: string, file: string): Promise<void>;
  /**
   * Brings what the node (or service) keeps where it reads its home (its volume) into `dir` on
   * this machine (a folder of `devnet save`'s own, never the node's home), with it stopped;
   * nothing where it reads its home on this machine itself (the process runtime).
   */
  pullHome(dir: string): Promise<void>;
  /**
   * What the runtime does beside the node's blocked-peers list when it is cut off (true) or let
   * back (false) (blockedPeers.ts); fails for a node the runtime does not know.
   */
  cutOff(cut: boolean): Promise<void>;
  /**
   * How the node's full disk is made (dataDisk.ts): `tmpfs` when its store is on a size-limited
   * tmpfs of the devnet's (its spec's diskBytes, where this runtime could make one), else `layer`.
   */
  diskBackend(): Promise<DiskBackend>;
  /**
   * On a `tmpfs` backend, the filler program on the node's data disk: `fill` until the system
   * answers ENOSPC, `free` removes the filler, `check` changes nothing. Whether it is filled now.
   * A node whose disk cannot be reached (not running on docker or swarm) is not filled.
   */
  fillDisk(op: FillOp): Promise<boolean>;
}

/** What a runtime can and cannot do, for callers that would otherwise ask which runtime it is. */
export interface Capabilities {
  /** Nodes may run on several machines: the manifest's placement, engines and registry apply. */
  readonly machines: boolean;
  /** How Prometheus finds the nodes itself (those that join later too); null: it is given their list. */
  readonly discovery: SwarmDiscovery | null;
}

/**
 * The provider of a devnet's nodes (zombienet-sdk's Provider and Namespace in one: a runtime
 * serves one devnet). Faults (disconnect, connect, partition) are written once over it
 * (blockedPeers.ts), monitoring too (monitoring/monitors.ts).
 */
export interface Runtime {
  readonly kind: RuntimeKind;
  capabilities(): Capabilities;
  /** Checks what the runtime needs (engine, image, built node) and gets it ready. */
  prepare(progress: Progress): Promise<void>;
  /** A node's or a service's handle (nothing is looked up until it is used). */
  node(name: string): NodeHandle;
  /** How a service sees the devnet on this runtime, its home being `home` on this machine. */
  serviceReach(home: string): ServiceReach;
  /** Creates (first time) and starts a service beside the nodes, or says why it cannot run here. */
  startService(s: ServiceLaunch, progress: Progress): Promise<ServiceSkipped>;
  /** Where a service's published port answers from this machine (a swarm's: on its manager). */
  serviceUrl(port: number): Promise<string>;
  /** For people: where services' ports are published when not on this machine's 127.0.0.1; null: there. */
  servicesPublishedOn(): Promise<string | null>;
  /** Removes everything the devnet made, on every machine it used. Returns what it removed. */
  teardown(keepData: boolean): Promise<string[]>;
}

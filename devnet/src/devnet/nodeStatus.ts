/** What `devnet status`, the panel and the testkit see of a node (Devnet.status, Devnet.probe). */
import type { NodeNetJson } from '../net/named.js';
import type { DiskBackend } from '../runtime/dataDisk.js';
import type { NodeRunState } from '../runtime/runtime.js';

export interface NodeStatus {
  readonly name: string;
  readonly rpc: string;
  /** The machine it runs on (multi-machine runtimes), or null: this one. */
  readonly machine: string | null;
  /** Where its ports are published and on which addresses. */
  readonly published: string;
  readonly state: NodeRunState;
  /**
   * How its last run ended, once it is not running: its exit code (0 stopped, 3 halted for an
   * upgrade plan, 4 refused its store's protocol version, 137 killed; chain-node start --help);
   * null while it runs or is paused, when it never ran, or where the runtime cannot tell.
   */
  readonly exitCode: number | null;
  readonly up: boolean;
  readonly disconnected: boolean;
  readonly height: number | null;
  readonly lastHash: string | null;
  readonly peers: number | null;
  /** The consensus round in progress at the next height (chain_consensus_round), or null. */
  readonly round: number | null;
  /** ACTIVE, INACTIVE, JAILED, or null for a node that is not a validator (or not answering). */
  readonly validatorStatus: string | null;
  readonly jailed: boolean | null;
  /** The version the devnet runs it on (checkout, git:COMMIT, path:DIR, image:NAME). */
  readonly version: string;
  /** The version it says it is (GET /upgrades node_version), "unknown" when it does not say; null when not answering. */
  readonly nodeVersion: string | null;
  /** Its disk: the faults the devnet applied and what the node says of its writes. */
  readonly disk: NodeDisk;
  /** Its network conditions in force (devnet net, zones, one-way partitions; net/named.ts); null: none. */
  readonly net: NodeNetJson | null;
}

/** A node's disk as `devnet status` shows it. */
export interface NodeDisk {
  /** The faults applied (`devnet disk`), in disk_faults.json's names; null: none. */
  readonly faults: {
    readonly full: boolean;
    readonly write_delay_ms: number;
    readonly fsync_delay_ms: number;
    readonly lose_unsynced: boolean;
  } | null;
  /** How a full disk is made: `tmpfs`, its store's own size-limited tmpfs filled for real; `layer`, the node's own fault layer (--fault-injection). */
  readonly backend: DiskBackend;
  /** Whether the node says its writes succeed (GET /status disk.writable); null when not answering or an older build. */
  readonly writable: boolean | null;
  /** Its failure line ("disk full: ENOSPC: …"), or null. */
  readonly error: string | null;
}

/** A node's status and the /metrics text it was read from (null when the node did not answer). */
export interface NodeProbe {
  readonly status: NodeStatus;
  readonly metrics: string | null;
}

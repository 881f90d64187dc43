/**
 * What `devnet … --json` prints, one object per command: typed once, for the CLI that prints
 * them (main.ts) and for whoever parses them (tests, benchmarks, the e2e suite, a chain team's
 * scripts through `@chain-devnet/devnet`). Field names are the printed ones.
 */

import type { DevnetErrorCode } from '../base/errors.js';
import type { ChainTimeJson } from '../devnet/chainTimeShown.js';
import type { NodeStatus } from '../devnet/nodeStatus.js';
import type { NodeNetJson } from '../net/named.js';
import type { ZoneSetup } from '../net/zones.js';
import type { AddResult } from '../operations/add.js';
import type { MarketStatus } from '../operations/market.js';
import type { ProbeRow } from '../operations/netProbe.js';
import type { TxOutcome } from '../operations/tx.js';
import type { UpgradePlanResult } from '../operations/upgradePlan.js';
import type { MonitoringEndpoints, RuntimeKind } from '../runtime/runtime.js';
import type { DevnetStatus, ForkRecord } from '../state/devnetState.js';

/** A funded account with its development key (`up`, `status`). */
export interface AccountJson {
  readonly name: string;
  readonly address: string;
  /** Null for a service's account (the market's escrow, its worker): its key is the service's. */
  readonly private_key: string | null;
  /** Wei, decimal. */
  readonly balance: string;
}

/** `devnet up --json`. */
export interface UpJson {
  readonly home: string;
  readonly runtime: RuntimeKind;
  readonly chain_id: string;
  readonly elapsed_ms: number;
  readonly nodes: readonly {
    readonly name: string;
    /** Its RPC as this machine reaches it. */
    readonly rpc: string;
    /** The machine it runs on (swarm), or null: this one. */
    readonly machine: string | null;
    /** Where its ports are published and on which addresses, for people. */
    readonly published: string;
    /** Its p2p port in the devnet's plan (published on 127.0.0.1 by the process and docker runtimes only). */
    readonly p2p_port: number;
    readonly peer_id: string;
    readonly address: string;
    readonly validator_address: string;
  }[];
  readonly monitoring: MonitoringEndpoints;
  readonly market: string | null;
  /** `resumed`: a stopped devnet started again where it stopped; `running`: it ran already, nothing was started; false: made now. */
  readonly resumed: false | 'resumed' | 'running';
  /** The panel's link, its secret in the fragment (`#secret=…`); null with --no-ui. */
  readonly ui: string | null;
  readonly accounts: readonly AccountJson[];
}

/** A node in `devnet status --json`: its state as the runtime and its RPC see it, and its addresses. */
export interface StatusNodeJson extends NodeStatus {
  readonly address: string;
  readonly validator_address: string;
}

/** `devnet status --json`. */
export interface StatusJson {
  readonly home: string;
  readonly runtime: RuntimeKind;
  /** `stopped` after `devnet stop` (whole devnet) or `down --keep-data`; `devnet start` or `up` resumes it. */
  readonly status: DevnetStatus;
  readonly chain_id: string;
  readonly block_time_ms: number;
  /** `devnet up --fork`: the network it was forked from (devnet.json's `fork`), or null. */
  readonly fork: ForkRecord | null;
  readonly nodes: readonly StatusNodeJson[];
  readonly monitoring: MonitoringEndpoints;
  /** The task market (`--market`), or null. */
  readonly market: MarketStatus | null;
  /** The panel's address (without its secret: `devnet ui` prints the link), or null when it has none. */
  readonly ui: { readonly url: string; readonly running: boolean } | null;
  readonly accounts: readonly AccountJson[];
  /** The chain's time under the control (devnet chain, devnet clock), from the nodes' files. */
  readonly time: ChainTimeJson;
}

/** `devnet ui --json`: the panel's link (its secret in the fragment), and whether it runs. */
export interface UiJson {
  readonly url: string | null;
  readonly running: boolean;
}

/** `devnet tx KIND … --json`: the hash, who sent it where, the node's answer and the receipt waited for. */
export type TxJson = TxOutcome;

/** `devnet add --json`. */
export interface AddJson extends AddResult {
  readonly address: string;
  readonly validator_address: string;
}

/** `devnet stop|start|kill|pause|resume|restart|disconnect|connect NODE --json`. */
export interface NodeOpJson {
  readonly node: string;
  readonly done: string;
}

/** `devnet upgrade --json`: each node upgraded, in order. */
export interface UpgradeJson {
  readonly upgraded: readonly {
    readonly node: string;
    readonly from: string;
    readonly to: string;
    readonly height: number;
  }[];
}

/** `devnet down --json`. */
export interface DownJson {
  readonly removed: readonly string[];
}

/** `devnet save --json`. */
export interface SaveJson {
  readonly file: string;
  /** Each node's height in the archive (null: no store yet). */
  readonly heights: Readonly<Record<string, number | null>>;
  readonly files: number;
  readonly elapsed_ms: number;
}

/** `devnet replay --json`: a node's consensus record replayed (operations/replay.ts). */
export interface ReplayJson {
  readonly node: string;
  readonly files: readonly string[];
  readonly entries: number;
  readonly heights: number;
  readonly inputs: number;
  readonly decisions: number;
  readonly from: number | null;
  readonly to: number | null;
  /** Null: the same actions at every input; else where this build decided otherwise. */
  readonly divergence: {
    readonly height: number;
    readonly line: number;
    readonly at: string;
    readonly recorded: string;
    readonly replayed: string;
  } | null;
}

/** What any command prints with --json when it fails (exit code 2 for a bad flag, else 1). */
export interface ErrorJson {
  readonly error: { readonly code: DevnetErrorCode | 'INTERNAL'; readonly message: string };
}

/** `devnet upgrade plan|cancel --json`: the plan, whether it is scheduled (cancelled), who signed, GET /upgrades after. */
export type UpgradePlanJson = UpgradePlanResult;

/** `devnet net --json`: every node's conditions in force. */
export interface NetJson {
  readonly nodes: Readonly<Record<string, NodeNetJson>>;
}

/** `devnet net --probe --json`. */
export interface NetProbeJson {
  readonly bytes: number;
  readonly links: readonly ProbeRow[];
}

/** `devnet zones --json`: the zones in force (null: none), and whether they are the manifest's. */
export interface ZonesJson {
  readonly zones: ZoneSetup | null;
  readonly from: 'manifest' | 'devnet zones' | null;
}

/** `devnet partition --json`: what was done. */
export interface PartitionJson {
  readonly groups: readonly (readonly string[])[] | null;
  readonly one_way: { readonly from: string; readonly to: string } | null;
  readonly healed: boolean;
}

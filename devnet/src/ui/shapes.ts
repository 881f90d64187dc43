/**
 * What the panel's server sends its pages and takes from them: the events of the stream
 * (GET /api/events) and the bodies and answers of the actions. Built on the shapes the packages
 * already define (the RPC's ValidatorAnswer, the devnet's NodeStatus and its --json answers), so
 * the page, the server and a program reading the stream agree by type. No shape here carries a
 * private key: the panel never sends one.
 */
import type { ValidatorAnswer } from '@chain-devnet/node/client';
import type { ChainTimeJson } from '../devnet/chainTimeShown.js';
import type { NodeStatus } from '../devnet/nodeStatus.js';
import type { AddJson, NetJson, NodeOpJson, SaveJson, TxJson } from '../json/jsonShapes.js';
import type { RuntimeKind } from '../runtime/runtime.js';

export { SECRET_HEADER } from '../panel/header.js';

/** Where the charts' samples come from: the devnet's Prometheus, or the nodes' own /metrics. */
export type SampleSource = 'prometheus' | 'nodes';

/** The devnet as the panel describes it: what does not change from one poll to the next. */
export interface PanelInfo {
  readonly home: string;
  readonly runtime: RuntimeKind;
  readonly chainId: string;
  readonly blockTimeMs: number;
  readonly prometheus: string | null;
  readonly grafana: string | null;
  /** The funded accounts a transfer may come from: names and addresses, never keys. */
  readonly accounts: readonly { readonly name: string; readonly address: string }[];
  readonly samplesFrom: SampleSource;
  /** How often the panel polls the nodes. */
  readonly pollMs: number;
}

/** A block of the stream. */
export interface BlockRow {
  readonly height: number;
  readonly hash: string;
  /** Unix seconds (the header's). */
  readonly timestamp: number;
  /** The round it was decided in: above 0, the proposers of rounds 0 … round−1 missed their slot. */
  readonly round: number;
  /** The proposer's node name (its on-chain name, or address, when it is no node of this devnet). */
  readonly proposer: string;
  readonly txs: number;
  /** The slots missed before this block: who (as `proposer` names it) and how many times. */
  readonly missed: readonly { readonly validator: string; readonly slots: number }[];
}

/** One validator: the RPC's answer, with the devnet node it runs on (null: none of this devnet's). */
export interface ValidatorRow extends ValidatorAnswer {
  readonly node: string | null;
}

/** A node's values at one sample; null where the node gave none (stopped, paused, not yet scraped). */
export interface NodeSample {
  readonly height: number | null;
  readonly mempool: number | null;
  /** CPU in cores (1 = one core busy). */
  readonly cpu: number | null;
  /** Resident memory in bytes. */
  readonly memory: number | null;
}

/** The charts' values at one moment. */
export interface Sample {
  /** Unix milliseconds. */
  readonly t: number;
  readonly nodes: Readonly<Record<string, NodeSample>>;
  /** Transactions per second committed (the busiest node's view). */
  readonly tps: number | null;
  /** Mean seconds between blocks over the last seconds (the nodes' average). */
  readonly blockInterval: number | null;
}

/** New lines of a node's log. */
export interface LogLines {
  readonly node: string;
  readonly lines: readonly string[];
}

/** An action someone ran from a panel, shown on every open page. */
export interface Activity {
  readonly id: number;
  /** Unix milliseconds when it started. */
  readonly at: number;
  /** e.g. `kill validator-2`, `transfer 1.5coin account-0 → account-1`. */
  readonly what: string;
  readonly status: 'running' | 'done' | 'failed';
  /** The outcome (a height, a hash) or why it failed. */
  readonly detail: string | null;
}

/** The whole picture, first on every stream: a page that (re)connects needs nothing else. */
export interface PanelSnapshot {
  readonly info: PanelInfo;
  readonly nodes: readonly NodeStatus[];
  /** Oldest first. */
  readonly blocks: readonly BlockRow[];
  readonly validators: readonly ValidatorRow[];
  /** Oldest first. */
  readonly samples: readonly Sample[];
  readonly logs: readonly LogLines[];
  /** Oldest first. */
  readonly activity: readonly Activity[];
  /** The chain's time control and each node's clock skew (`devnet status --json`'s time); null before the first poll. */
  readonly time: ChainTimeJson | null;
}

/** The events of GET /api/events, by SSE event name. */
export interface PanelEvents {
  readonly snapshot: PanelSnapshot;
  readonly info: PanelInfo;
  readonly nodes: readonly NodeStatus[];
  /** New blocks, oldest first. */
  readonly blocks: readonly BlockRow[];
  readonly validators: readonly ValidatorRow[];
  readonly sample: Sample;
  readonly log: LogLines;
  readonly activity: Activity;
  /** The chain's time control changed (devnet chain, devnet clock: from here or a terminal). */
  readonly time: ChainTimeJson;
}

export type PanelEventName = keyof PanelEvents;

/** POST /api/tx/send */
export interface TransferRequest {
  /** A funded account of the devnet (account-0 …). */
  readonly from: string;
  /** An account or node name, or a coin1… address. */
  readonly to: string;
  /** 1.5coin, 100coins, 2500wei. */
  readonly amount: string;
  readonly memo?: string;
}

/** POST /api/nodes */
export interface AddRequest {
  readonly name?: string;
  /** With a stake (e.g. 100coin) the node becomes a validator at the next eligible epoch boundary. */
  readonly stake?: string;
}

/** POST /api/net: `devnet net NODE …` (clear: `devnet net [NODE] --clear`); values as the CLI takes them. */
export type { NetRequest } from '../net/request.js';

/** POST /api/partition: one of a shape, a one-way cut, or heal (`devnet partition`). */
export interface PartitionRequest {
  readonly shape?: 'minority' | 'halves' | 'bridge' | 'ring';
  readonly oneWay?: { readonly from: string; readonly to: string };
  readonly heal?: true;
}

/** POST /api/chain and /api/clock: `devnet chain …` and `devnet clock NODE --skew` as the scenario steps write them (operations/chainRequest.ts). */
export type { ChainRequest, ClockRequest } from '../operations/chainRequest.js';
/** POST /api/disk: `devnet disk NODE …` (runtime/diskRequest.ts: full, slowWrites, slowFsync, loseUnsynced, clear). */
export type { DiskRequest } from '../runtime/diskRequest.js';

/** Their answer: the chain's time after it, and the height it left the chain at (pause, resume, mine; else null). */
export interface ChainTimeAnswer extends ChainTimeJson {
  readonly height: number | null;
}

/** POST /api/disk's answer: the node's disk faults now, in disk_faults.json's names. */
export interface DiskAnswer {
  readonly node: string;
  readonly full: boolean;
  readonly write_delay_ms: number;
  readonly fsync_delay_ms: number;
  readonly lose_unsynced: boolean;
}

/** The answer of both: every node's conditions in force (`devnet net --json`). */
export type NetAnswer = NetJson;

/** The answers of the actions: the --json shapes of the same commands. */
export type NodeOpAnswer = NodeOpJson;
export type TransferAnswer = TxJson;
export type AddAnswer = AddJson;
/** POST /api/save: `devnet save` into the devnet's saves/ folder. */
export type SaveAnswer = SaveJson;

/** Every refusal and failure: a status 4xx/5xx and this body. */
export interface PanelErrorAnswer {
  readonly detail: string;
  /** The devnet's error code when it was one of its errors (UNKNOWN_NODE, BAD_FLAG, …). */
  readonly code?: string;
}

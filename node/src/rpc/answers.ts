/**
 * The JSON the RPC answers, endpoint by endpoint (docs/PROTOCOL.md, README "RPC"): one
 * definition, which the server's views are typed against (views.ts, app.ts, the receipt of
 * chainService) and which the RpcClient, the devnet and the e2e suite read with. Field names
 * are the wire's. Amounts in wei are decimal strings, except the delegation and reward amounts,
 * which the specification gives as JSON integers: the server writes them exactly at any size,
 * and the client reads them as a number when it is safe and a bigint beyond (JsonInteger).
 */
import type { BlockJson, ValidatorStatus } from '../chain/index.js';

/** A JSON integer of any size: bigint on the server; number or bigint (beyond 2^53) as read by the client. */
export type JsonInteger = number | bigint;

/** GET /status */
export interface StatusAnswer {
  readonly height: number;
  readonly last_hash: string;
  readonly network: string;
  readonly mempool_size: number;
  readonly epoch: number;
  /** Extension: the chain id transactions must sign for (docs/PROTOCOL.md). */
  readonly chain_id: string;
  /** Extension: whether the node's disk takes its writes (docs/PROTOCOL.md, "Disk faults"). */
  readonly disk: DiskAnswer;
}

/** GET /status's `disk` (extension, docs/PROTOCOL.md "Disk faults"). */
export interface DiskAnswer {
  /** False while a write of the node failed last (it then commits and signs nothing). */
  readonly writable: boolean;
  /** The first failure's line ("disk full: ENOSPC: no space left on device, write"); null while writable. */
  readonly error: string | null;
  /** The parts whose last write failed: `store`, `priv-validator`. */
  readonly failing: readonly string[];
  /** When the first of them failed, ms since the epoch; null while writable. */
  readonly since: number | null;
  /** TEST ONLY: the faults of <home>/disk_faults.json in force (with --fault-injection); else null. */
  readonly faults: DiskFaultsAnswer | null;
}

/** The disk faults in force, in disk_faults.json's field names. */
export interface DiskFaultsAnswer {
  readonly full: boolean;
  readonly write_delay_ms: number;
  readonly fsync_delay_ms: number;
  readonly lose_unsynced: boolean;
}

/** GET /block/{height}: the header and the transactions, each with its tx_hash. */
export type BlockAnswer = BlockJson;

/**
 * GET /block/{height}/commit (extension, docs/PROTOCOL.md "Votes, proposals and commits"): the
 * precommits that made the block final on this node. Each node keeps the commit it assembled (or
 * synced), so two nodes may list different signers, each set more than 2/3 of the validators.
 */
export interface CommitAnswer {
  readonly height: number;
  readonly round: number;
  readonly block_hash: string;
  /** `validator` is the signer's consensus address (`coinvalcons1…`). */
  readonly signatures: readonly { readonly validator: string; readonly signature: string }[];
}

/** GET /balance/{address} */
export interface BalanceAnswer {
  readonly address: string;
  /** Wei, decimal. */
  readonly balance: string;
  readonly nonce: number;
}

/** One validator of GET /validators: the specification's fields, then what a devnet user needs. */
export interface ValidatorAnswer {
  readonly address: string;
  readonly pq_pub_key: string;
  /** Stake in wei, decimal. */
  readonly power: string;
  readonly is_active: boolean;
  readonly reward_address: string;
  readonly name: string;
  readonly commission_rate: number;
  readonly status: ValidatorStatus;
  readonly is_jailed: boolean;
  readonly jail_count: number;
  readonly total_delegated: string;
  readonly uptime: number;
  readonly missed_slots: number;
  readonly produced_slots: number;
  /** Its place in the proposer order, or null when not active. */
  readonly proposer_index: number | null;
  readonly operator_address: string;
}

/** GET /validators: all validators in address order (the proposer order of the active ones). */
export interface ValidatorsAnswer {
  readonly epoch: number;
  readonly validators: readonly ValidatorAnswer[];
}

/** GET /delegator/{address}/delegations */
export interface DelegationsAnswer {
  readonly delegator: string;
  readonly total_delegated: JsonInteger;
  readonly delegations: readonly {
    readonly validator: string;
    readonly amount: JsonInteger;
    readonly created_height: number;
    readonly validator_name: string;
    readonly validator_commission: number;
  }[];
}

/** GET /delegator/{address}/rewards */
export interface RewardsAnswer {
  readonly delegator: string;
  readonly total_rewards: JsonInteger;
  readonly current_epoch: number;
  readonly rewards_by_epoch: readonly { readonly epoch: number; readonly amount: JsonInteger }[];
}

/** GET /delegator/{address}/unbonding */
export interface UnbondingAnswer {
  readonly delegator: string;
  readonly unbonding_entries: readonly {
    readonly validator: string;
    /** Wei, decimal. */
    readonly amount: string;
    readonly creation_height: number;
    readonly completion_height: number;
    readonly blocks_remaining: number;
  }[];
}

/** One snapshot of GET /snapshots. */
export interface SnapshotListItem {
  readonly height: number;
  readonly timestamp: number;
  readonly size_bytes: number;
  /** SHA-256 of the uncompressed content: the same on every node for one height. */
  readonly hash: string;
  readonly compressed: boolean;
}

/** GET /snapshots */
export interface SnapshotsAnswer {
  readonly snapshots: readonly SnapshotListItem[];
}

/** GET /snapshots/{height} */
export interface SnapshotAnswer extends SnapshotListItem {
  readonly epoch: number;
  readonly validator_count: number;
  readonly account_count: number;
}

/**
 * GET /supply (extension, docs/PROTOCOL.md): the economic totals and where every wei is, at one
 * height. Conservation: genesis_supply + total_minted - total_burned = balances + stakes +
 * delegations + unbonding + treasury. Wei, decimal strings.
 */
export interface SupplyAnswer {
  readonly height: number;
  readonly genesis_supply: string;
  readonly total_minted: string;
  readonly total_burned: string;
  /** Every account's balance. */
  readonly balances: string;
  /** Every validator's self-stake (its power). */
  readonly stakes: string;
  /** Every delegation's amount. */
  readonly delegations: string;
  /** Every unbonding entry's amount (UNDELEGATE and UNSTAKE, not yet returned). */
  readonly unbonding: string;
  readonly treasury: string;
}

/** A plan as the RPC shows it (docs/PROTOCOL.md, "Upgrade plans"). */
export interface UpgradePlanAnswer {
  readonly target_version: string;
  readonly upgrade_height: number;
}

/**
 * A plan not yet applied: scheduled (it will be applied at its height unless cancelled), or signed
 * by some validators and not yet scheduled. `signers`: the active validators whose signature
 * counts toward the step still open (scheduling, or for a scheduled plan its cancel); `needed`:
 * how many of the `active_validators` that step takes.
 */
export interface PendingUpgradeAnswer extends UpgradePlanAnswer {
  readonly scheduled: boolean;
  readonly signers: readonly string[];
  readonly needed: number;
  readonly active_validators: number;
  /** Whether this node's binary has a migration path to target_version (else it halts at the height). */
  readonly supported: boolean;
}

/**
 * GET /upgrades (extension, docs/PROTOCOL.md): the node's own version and the chain's, what the
 * binary runs, the plans pending and applied, and the parameters in force (upgrades change them).
 */
export interface UpgradesAnswer {
  /** The node's software version (its build). */
  readonly node_version: string;
  /** The chain's protocol version now (its state's). */
  readonly protocol_version: string;
  /** The protocol versions this binary runs: its migration registry's, ascending. */
  readonly supported_protocol_versions: readonly string[];
  /** The version of the peer-to-peer protocol ids and topics; peers of another MAJOR are refused. */
  readonly p2p_version: string;
  readonly height: number;
  /** Blocks between an UPGRADE_PLAN's block and its upgrade_height, at least. */
  readonly min_upgrade_delay: number;
  readonly pending: readonly PendingUpgradeAnswer[];
  /** Plans applied (height reached), oldest first. */
  readonly applied: readonly UpgradePlanAnswer[];
  /** The chain parameters in force, as in a genesis file's `params`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** GET /tx/{tx_hash}/receipt: a pending or expired transaction has no height and no timestamp. */
export interface ReceiptAnswer {
  readonly tx_hash: string;
  readonly status: 'pending' | 'confirmed' | 'failed';
  readonly block_height: number | null;
  readonly timestamp: number | null;
  readonly confirmations: number;
  /** Why it failed (`expired` for a transaction that left the mempool), else null. */
  readonly error: string | null;
}

/** POST /tx/send: received into the mempool, or rejected by its checks (error says why). */
export interface SubmitAnswer {
  readonly tx_hash: string;
  readonly status: 'received' | 'rejected';
  readonly error?: string;
}

/** Every refusal: 4xx and 5xx answers. */
export interface ErrorAnswer {
  readonly detail: string;
}

/**
 * POST /net/probe (TEST ONLY extension, issue 41; docs/PROTOCOL.md, "Network conditions"): the
 * link to one peer as measured through its conditions. Rates in bits a second; the transfers'
 * fields null when no bytes were asked.
 */
export interface NetProbeAnswer {
  readonly peer: string;
  readonly rtt_ms: number;
  readonly bytes: number;
  readonly up_ms: number | null;
  readonly up_bps: number | null;
  readonly down_ms: number | null;
  readonly down_bps: number | null;
}

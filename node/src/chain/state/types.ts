/**
 * The chain state: an immutable value. A block turns one state into the next (applyBlock);
 * nothing here is ever mutated in place. Map iteration order is never relied on: every
 * rule that walks a map sorts its keys first, so a state restored from a snapshot behaves
 * exactly like one replayed from genesis.
 */
import type { ChainParams } from '../params.js';

export type ValidatorStatus = 'INACTIVE' | 'ACTIVE' | 'JAILED' | 'EJECTED';

export interface Account {
  readonly balance: bigint;
  /** The nonce the account's next transaction must carry. */
  readonly nonce: number;
  /** Rewards credited to this account, by epoch (see docs/RULES.md, "Epochs", for epoch numbering). */
  readonly rewardHistory: ReadonlyMap<number, bigint>;
}

export interface Validator {
  /** Consensus address, `coinvalcons1…`, the key of the validators map. */
  readonly address: string;
  readonly pubKey: string;
  /** Account address of the same key (`coin1…`): sends STAKE, UNSTAKE, UNJAIL, UPDATE_VALIDATOR. */
  readonly operator: string;
  readonly rewardAddress: string;
  readonly name: string;
  readonly commissionPpm: number;
  /** Self-bonded stake: the validator's `power`. */
  readonly stake: bigint;
  readonly totalDelegated: bigint;
  readonly status: ValidatorStatus;
  readonly jailCount: number;
  /** Height of the STAKE that registered it (0 for genesis validators). */
  readonly registeredHeight: number;
  /** Proposer slots this epoch: blocks it produced and rounds it was due but did not. */
  readonly slotsProduced: number;
  readonly slotsMissed: number;
}

export interface Delegation {
  readonly delegator: string;
  readonly validator: string;
  readonly amount: bigint;
  readonly createdHeight: number;
}

export interface UnbondingEntry {
  /** Order of creation; with completionHeight it orders the queue. */
  readonly seq: number;
  readonly delegator: string;
  readonly validator: string;
  readonly amount: bigint;
  readonly creationHeight: number;
  readonly completionHeight: number;
}

export interface UpgradePlan {
  readonly targetVersion: string;
  readonly upgradeHeight: number;
}

/**
 * A validator's signature of an upgrade plan (UPGRADE_PLAN) not yet scheduled, or of the cancel
 * of a scheduled one (UPGRADE_CANCEL): at most one per validator, dropped at the plan's height
 * (docs/RULES.md, "Upgrade plans").
 */
export interface UpgradeSignal {
  readonly kind: 'plan' | 'cancel';
  readonly plan: UpgradePlan;
  /** Height of the block whose transaction signed it. */
  readonly signedHeight: number;
}

export interface Totals {
  /** Wei in existence at genesis (balances + stakes + treasury). */
  readonly genesisSupply: bigint;
  readonly minted: bigint;
  readonly burned: bigint;
  readonly treasury: bigint;
}

export interface ChainState {
  readonly params: ChainParams;
  readonly protocolVersion: string;
  /** Plans scheduled (genesis, or agreed by validators), in height order; applied ones stay. */
  readonly upgrades: readonly UpgradePlan[];
  /** Validator address -> its pending plan or cancel signature. */
  readonly upgradeSignals: ReadonlyMap<string, UpgradeSignal>;
  readonly height: number;
  /** Hash of the block at `height`; not part of the state root (the root is inside that block). */
  readonly lastBlockHash: string;
  readonly lastTimestamp: number;
  readonly accounts: ReadonlyMap<string, Account>;
  readonly validators: ReadonlyMap<string, Validator>;
  /** validator address -> delegator address -> delegation. */
  readonly delegations: ReadonlyMap<string, ReadonlyMap<string, Delegation>>;
  /** Sorted by (completionHeight, seq). */
  readonly unbonding: readonly UnbondingEntry[];
  readonly nextUnbondingSeq: number;
  readonly totals: Totals;
  /**
   * The hash of the chain's block 0 (its genesis), the state entry `c/`: named from protocol
   * 1.2.0 on by every state at height >= 1 (block/genesisName.ts), null below 1.2.0 and at height
   * 0 (block 0's hash covers the genesis state's root, so that state cannot hold it).
   */
  readonly genesisHash: string | null;
}

export const EMPTY_ACCOUNT: Account = Object.freeze({ balance: 0n, nonce: 0, rewardHistory: new Map() });

/** The epoch in progress after the block at `height` (epochs are counted by completed transitions). */
export function epochAt(height: number, epochLength: number): number {
  return Math.floor(height / epochLength);
}

/** The epoch that the block at `height` belongs to: blocks eL+1 … (e+1)L form epoch e. */
export function epochOfBlock(height: number, epochLength: number): number {
  return Math.floor((height - 1) / epochLength);
}

export function sortedKeys<K extends string>(map: ReadonlyMap<K, unknown>): K[] {
  return [...map.keys()].sort(compareStrings);
}

/** Code-unit order, the same as byte order for the ASCII keys used here. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

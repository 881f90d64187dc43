/**
 * `@chain-devnet/devnet/testkit`: devnet tests in TypeScript for chain teams (docs/TESTKIT.md).
 * Start a devnet from a manifest on any runtime (or attach to one), break its nodes, partition
 * it, put it under load, wait and assert with bounds, and have every run checked against the
 * invariants at its end; what it started is always torn down.
 */
export type { AddResult } from '../operations/add.js';
export { NODE_OPS, type NodeOp } from '../operations/nodeOp.js';
export type { SaveResult } from '../operations/save.js';
export type { TxOutcome } from '../operations/tx.js';
export type { DiskChange, DiskFaults } from '../runtime/diskFaults.js';
export type { NodeRunState, RuntimeKind } from '../runtime/runtime.js';
export type { Manifest } from '../spec/manifest.js';
export { boundMs, checkWithin, describeWithin, slowdown, type TestRuntime, type Within } from './bounds.js';
export { Chain } from './chain.js';
export { type Mined, type MineTarget, TimeControl } from './chainTime.js';
export { type ContextParts, NetContext, type NodeRef } from './context.js';
export { type FailureFacts, StepError, TestkitError, TestkitUsageError } from './errors.js';
export * from './expect/index.js';
export { ready, recover } from './health.js';
export {
  checkInvariants,
  INVARIANTS,
  type InvariantOptions,
  type InvariantReport,
} from './invariants/index.js';
export { type ConfirmedTx, Ledger } from './ledger.js';
export { Load } from './load/load.js';
export { LOAD_TX_TYPES, type LoadOptions, type LoadTxType } from './load/options.js';
export { type LoadReport, type LoadTx, percentile } from './load/report.js';
export { type LineMatch, type LogMarks, lineMatcher } from './logs.js';
export { Metrics } from './metrics.js';
export { type ActiveSet, sortedSet } from './model/activeSet.js';
export * from './model/economics.js';
export {
  type EpochEvent,
  type ModelValidator,
  ValidatorModel,
  type ValidatorStatus,
} from './model/validatorModel.js';
export type { DevAccount } from './net.js';
export { NodeHandle, type NodeOperations } from './nodeHandle.js';
export { type NodeRunView, TestnetBase } from './testnet/base.js';
export type { DevnetTx, StartOptions, StopOptions } from './testnet/options.js';
export { type SimStartOptions, SimTestnet } from './testnet/simTestnet.js';
export { Testnet } from './testnet/testnet.js';
export { withSimTestnet, withTestnet } from './testnet/withTestnet.js';
export { COIN, type Sent, type TxSpec, Txs, Wallet } from './wallet.js';

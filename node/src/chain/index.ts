/**
 * The chain rules: a pure, deterministic state machine. No I/O, no clock, no randomness:
 * every input is a value. Entry point: applyBlock(state, block) -> { state, outcomes }.
 */

export * from './amounts.js';
export { checkAdmission } from './block/admission.js';
export * from './block/applyBlock.js';
export * from './block/blockJson.js';
export * from './block/compatibility.js';
export * from './block/epoch.js';
export * from './block/evidence.js';
export * from './block/genesisName.js';
export * from './block/header.js';
export * from './block/proposer.js';
export * from './block/rewards.js';
export * from './block/upgrades.js';
export * from './block/votes.js';
export { DecodeError, isWellFormed, Reader, Writer } from './codec/encoding.js';
export * from './codec/merkle.js';
export * from './codec/paramsJson.js';
export * from './errors.js';
export type { BlockContext, ComputeResult } from './execute/context.js';
export { checkTx, executeTx, minFee } from './execute/executeTx.js';
export { MIN_UPGRADE_DELAY } from './execute/upgradeSignals.js';
export * from './genesis.js';
export type * from './genesisState.js';
export { MIGRATIONS, NEWEST_PROTOCOL_VERSION } from './migrations.js';
export * from './params.js';
export * from './reserved.js';
export * from './semver.js';
export { fullStateDiff, type StateDiff, stateDiff } from './state/diff.js';
export { StateDraft } from './state/draft.js';
export { type StateEntry, stateEntries } from './state/entries.js';
export { maxEntriesAt } from './state/entryBound.js';
export { stateRoot } from './state/root.js';
export * from './state/snapshot.js';
export { type ChainPosition, StateBuilder, stateFromEntries } from './state/stateBuilder.js';
export * from './state/types.js';
export * from './tx/signing.js';
export * from './tx/types.js';
export * from './tx/wire.js';

/**
 * The chain rules: a pure, deterministic state machine. No I/O, no clock, no randomness:
 * every input is a value. Entry point: applyBlock(state, block) -> { state, outcomes }.
 */

export { checkAdmission } from './admission.js';
export * from './amounts.js';
export * from './applyBlock.js';
export * from './block.js';
export * from './blockJson.js';
export * from './epoch.js';
export * from './errors.js';
export * from './evidence.js';
export type { BlockContext, ComputeResult } from './execute/context.js';
export { checkTx, executeTx, minFee } from './execute/executeTx.js';
export * from './genesis.js';
export * from './merkle.js';
export * from './params.js';
export * from './paramsJson.js';
export * from './proposer.js';
export * from './reserved.js';
export * from './rewards.js';
export * from './semver.js';
export * from './snapshot.js';
export { fullStateDiff, type StateDiff, stateDiff } from './state/diff.js';
export { StateDraft } from './state/draft.js';
export { type StateEntry, stateEntries, stateFromEntries } from './state/entries.js';
export { stateRoot } from './state/root.js';
export * from './state/types.js';
export * from './tx/signing.js';
export * from './tx/types.js';
export * from './tx/wire.js';
export * from './upgrades.js';
export * from './votes.js';

/**
 * Consensus records (`@chain-devnet/node/record`): the format a node writes with
 * --record-consensus (docs/PROTOCOL.md, "Consensus records"), reading one back, and replaying it
 * into this build's core (`devnet replay`).
 */
export { RECORD_FORMAT, type RecordEntry, RecordError, type RecordedAction } from './format.js';
export { parseRecord } from './parse.js';
export { type Divergence, type ReplayResult, replayRecord } from './replay.js';

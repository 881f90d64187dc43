/**
 * How many state entries a chain can hold at a height, from its genesis alone (docs/PROTOCOL.md,
 * "State sync"): what a joiner knows before it reads a snapshot, so that a snapshot declaring more
 * entries than the chain can have made is refused at its header, before any entry is decoded.
 * Each transaction makes at most one new entry (a TRANSFER's recipient, a STAKE's validator, a
 * DELEGATE's delegation, an UNDELEGATE's or UNSTAKE's unbonding entry, a plan's signature), a block
 * at most two more (a reward address paid for the first time; a migration's entry), and a block
 * holds at most block_gas_limit / the cheapest transaction's gas of them. The genesis counts twice:
 * a fork's genesis may name delegators and unbonding entries whose accounts appear only when first
 * paid. Generous by design (a real chain fills no block with new accounts), it bounds what a forged
 * snapshot of a young chain can claim; for an old chain, the snapshot's own bounds and the root
 * check before any state is built do the rest. It takes block_gas_limit from the genesis: no
 * migration of this build changes it (one that raised it would have to raise this bound too).
 */
import { BASE_GAS } from '../tx/types.js';
import { stateEntries } from './entries.js';
import type { ChainState } from './types.js';

/** The gas of the cheapest transaction (TRANSFER). */
const CHEAPEST_TX_GAS = Math.min(...Object.values(BASE_GAS));

/** New entries one block can make beyond its transactions'. */
const ENTRIES_PER_BLOCK_BEYOND_TXS = 2;

/** The most entries the state of the chain of `genesis` (its state at height 0) holds at `height`. */
export function maxEntriesAt(genesis: ChainState, height: number): number {
  const perBlock = Math.floor(genesis.params.blockGasLimit / CHEAPEST_TX_GAS) + ENTRIES_PER_BLOCK_BEYOND_TXS;
  return Math.min(Number.MAX_SAFE_INTEGER, 2 * stateEntries(genesis).length + height * perBlock);
}

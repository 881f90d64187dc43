/**
 * From protocol 1.2.0 on, the state names its genesis (docs/RULES.md, "The state names its
 * genesis"): every state at height >= 1 holds the hash of the chain's block 0 as the entry `c/`,
 * so its state root, every header after it and every snapshot of it are tied to one genesis.
 * Two chains of one seed and chain id (sister devnets: the same keys, another genesis time) then
 * have different states, and a joiner or a fork can tell one from the other; below 1.2.0 nothing
 * committed tells them apart. Written once: by block 1 of a chain born at 1.2.0 or later (whose
 * parent, block 0, is the genesis: its hash is the prev_hash of block 1), or by the migration
 * that brings a chain to 1.2.0 (migrations.ts), which is given the hash as an input value.
 */
import { compareSemVer, parseSemVer } from '../semver.js';
import type { StateDraft } from '../state/draft.js';

/** The first protocol version whose states name their genesis. */
export const GENESIS_NAMED_FROM = '1.2.0';

const NAMED_FROM = parseSemVer(GENESIS_NAMED_FROM)!;

/** Whether a state of protocol `version` (at height >= 1) names its genesis. */
export function namesGenesis(version: string): boolean {
  const v = parseSemVer(version);
  return v !== null && compareSemVer(v, NAMED_FROM) >= 0;
}

/**
 * Block 1 of a chain born at 1.2.0 or later: its parent is block 0, whose hash (the state's
 * lastBlockHash before block 1) is the genesis hash. A later block changes nothing.
 */
export function nameGenesisAtBlockOne(d: StateDraft, height: number): void {
  if (height === 1 && d.genesisHash === null && namesGenesis(d.protocolVersion))
    d.genesisHash = d.base.lastBlockHash;
}

/**
 * The migration's part (to 1.2.0): the state names `genesisHash`, which the node gives the rules
 * (ApplyOptions.genesisHash). Without it the rules cannot go on: a node always knows its genesis,
 * so a caller that gives none is a bug, not a block to refuse.
 */
export function nameGenesis(d: StateDraft, genesisHash: string | null): void {
  if (d.genesisHash !== null) return;
  if (genesisHash === null || !/^[0-9a-f]{64}$/.test(genesisHash))
    throw new Error(
      `internal: a migration to ${GENESIS_NAMED_FROM} needs the chain's genesis hash (ApplyOptions.genesisHash), got ${String(genesisHash)}`,
    );
  d.genesisHash = genesisHash;
}

/**
 * This build's migration registry: the state migrations it can apply at a plan's height, each from
 * one protocol version to the next (docs/RULES.md, "Migrations of this build"). A node halts at a
 * plan whose target no path through these reaches (block/compatibility.ts).
 */
import { supportedVersions } from './block/compatibility.js';
import { GENESIS_NAMED_FROM, nameGenesis } from './block/genesisName.js';
import type { Migration, MigrationRegistry } from './block/upgrades.js';

/** Protocol 1.1.0's default commission rate of a validator that states none: 5%. */
export const V1_1_0_DEFAULT_COMMISSION_PPM = 50_000;

/**
 * 1.0.0 -> 1.1.0: a STAKE that registers a validator without commission_rate gets 5% instead of
 * the genesis default (10% on every network). Validators already registered keep their rate.
 */
export const MIGRATION_1_1_0: Migration = {
  from: '1.0.0',
  to: '1.1.0',
  migrate: (d) => {
    d.params = { ...d.params, defaultCommissionPpm: V1_1_0_DEFAULT_COMMISSION_PPM };
  },
};

/**
 * 1.1.0 -> 1.2.0: the state names its genesis (block/genesisName.ts): the entry `c/` holds the
 * hash of the chain's block 0, given by the node, from the plan's block on.
 */
export const MIGRATION_1_2_0: Migration = {
  from: '1.1.0',
  to: GENESIS_NAMED_FROM,
  migrate: (d, input) => nameGenesis(d, input.genesisHash),
};

export const MIGRATIONS: MigrationRegistry = [MIGRATION_1_1_0, MIGRATION_1_2_0];

/** The newest protocol version this build runs: what a network it generates starts at by default. */
export const NEWEST_PROTOCOL_VERSION = supportedVersions(MIGRATIONS).at(-1)!;

/**
 * This build's migration registry: the state migrations it can apply at a plan's height, each from
 * one protocol version to the next (docs/RULES.md, "Migrations of this build"). A node halts at a
 * plan whose target no path through these reaches (block/compatibility.ts).
 */
import type { MigrationRegistry } from './block/upgrades.js';

export const MIGRATIONS: MigrationRegistry = [];

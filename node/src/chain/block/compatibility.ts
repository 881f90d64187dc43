/**
 * Which protocol versions a node's binary can run, and what it does when the chain needs another
 * (docs/RULES.md, "Versions and halting"): the versions its migration registry reaches from the
 * first protocol version; the halt before a block whose plan it has no migration for; the refusal
 * to start on a state of a version it does not know (too old, or a downgrade past an applied
 * upgrade). Pure: the node turns the answers into a log line and its exit code.
 */
import { compareSemVer, parseSemVer } from '../semver.js';
import type { ChainState, UpgradePlan } from '../state/types.js';
import { type MigrationRegistry, migrationPath } from './upgrades.js';

/** The first protocol version (a genesis without protocol_version): every binary runs it. */
export const BASE_PROTOCOL_VERSION = '1.0.0';

/** chain-node's exit code when it halts at a plan's height it has no migration for. */
export const UPGRADE_HALT_EXIT_CODE = 3;
/** chain-node's exit code when it refuses to start on a state of a protocol version it does not run. */
export const VERSION_REFUSED_EXIT_CODE = 4;

function bySemVer(a: string, b: string): number {
  const x = parseSemVer(a);
  const y = parseSemVer(b);
  return x === null || y === null ? a.localeCompare(b) : compareSemVer(x, y);
}

/** The protocol versions this registry runs, ascending: the base one and every one its migrations reach. */
export function supportedVersions(registry: MigrationRegistry): string[] {
  const out = new Set([BASE_PROTOCOL_VERSION]);
  for (const m of registry) if (migrationPath(registry, BASE_PROTOCOL_VERSION, m.to) !== null) out.add(m.to);
  return [...out].sort(bySemVer);
}

export interface UpgradeHalt {
  /** The height the node must not sign at (the plan's). */
  readonly height: number;
  readonly plan: UpgradePlan;
  /** The chain's protocol version before the plan. */
  readonly current: string;
}

/**
 * The halt due before the block after `state`: the plan scheduled at that height when this
 * registry has no migration path to its target; null when the node may go on.
 */
export function upgradeHaltAt(state: ChainState, registry: MigrationRegistry): UpgradeHalt | null {
  const height = state.height + 1;
  const plan = state.upgrades.find((u) => u.upgradeHeight === height);
  if (plan === undefined || migrationPath(registry, state.protocolVersion, plan.targetVersion) !== null)
    return null;
  return { height, plan, current: state.protocolVersion };
}

/** The one line a halting node logs (what a supervisor waits for). */
export function describeHalt(h: UpgradeHalt, nodeVersion: string): string {
  return (
    `UPGRADE NEEDED: plan ${h.plan.targetVersion} at height ${h.plan.upgradeHeight}: the chain is at protocol ` +
    `version ${h.current} and needs ${h.plan.targetVersion}, which this node (version ${nodeVersion}) has no migration for: ` +
    `halted before signing anything at height ${h.height}; restart it on a version that supports ${h.plan.targetVersion}`
  );
}

/**
 * Why a node with this registry must not run on `state`, or null: the state's protocol version is
 * not one it runs (the chain moved past it, or it is a downgrade past an applied upgrade).
 */
export function versionRefusal(
  state: ChainState,
  registry: MigrationRegistry,
  nodeVersion: string,
): string | null {
  const supported = supportedVersions(registry);
  if (supported.includes(state.protocolVersion)) return null;
  const newest = supported[supported.length - 1]!;
  const applied = state.upgrades.find(
    (u) => u.targetVersion === state.protocolVersion && u.upgradeHeight <= state.height,
  );
  const why =
    applied === undefined
      ? 'this node is too old for the chain'
      : `a downgrade past the upgrade to ${applied.targetVersion} applied at height ${applied.upgradeHeight} is refused`;
  return (
    `${why}: the stored state is at protocol version ${state.protocolVersion}, and this node (version ` +
    `${nodeVersion}) runs protocol versions ${supported.join(', ')} (newest ${newest}): run a version that supports ${state.protocolVersion}`
  );
}

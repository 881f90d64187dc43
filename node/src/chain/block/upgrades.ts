/**
 * Protocol upgrades. A plan (in genesis, kept in the state) names a target_version and an
 * upgrade_height. Migrations are pure functions registered for one (from, to) version pair;
 * at the start of the block at upgrade_height the registry's path from the current version to
 * the target is applied in order and the state's protocol version becomes the target. A node
 * whose registry has no such path stops with UPGRADE_UNSUPPORTED rather than diverge.
 */
import { BlockError } from '../errors.js';
import { compareSemVer, parseSemVer } from '../semver.js';
import type { StateDraft } from '../state/draft.js';
import type { UpgradePlan } from '../state/types.js';

/** What a migration may need beyond the state: values the node knows and gives the rules. */
export interface MigrationInput {
  /** The hash of the chain's block 0 (ApplyOptions.genesisHash); null when the caller gave none. */
  readonly genesisHash: string | null;
}

export interface Migration {
  readonly from: string;
  readonly to: string;
  /** Rewrites the draft in place (params, accounts, validators…). Must be deterministic. */
  readonly migrate: (d: StateDraft, input: MigrationInput) => void;
}

export type MigrationRegistry = readonly Migration[];

/** Problems with a plan list given the starting version; empty when valid. */
export function checkUpgradePlans(plans: readonly UpgradePlan[], startVersion: string): string[] {
  const problems: string[] = [];
  let version = parseSemVer(startVersion);
  if (version === null) return [`protocol_version ${JSON.stringify(startVersion)} is not MAJOR.MINOR.PATCH`];
  let lastHeight = 0;
  plans.forEach((plan, i) => {
    const target = parseSemVer(plan.targetVersion);
    if (target === null) problems.push(`upgrades[${i}].target_version is not MAJOR.MINOR.PATCH`);
    else if (version !== null && compareSemVer(target, version) <= 0)
      problems.push(
        `upgrades[${i}].target_version ${plan.targetVersion} must be above the version before it`,
      );
    if (!Number.isSafeInteger(plan.upgradeHeight) || plan.upgradeHeight <= lastHeight)
      problems.push(`upgrades[${i}].upgrade_height must be a whole number above ${lastHeight}`);
    version = target ?? version;
    lastHeight = plan.upgradeHeight;
  });
  return problems;
}

/** The chain of migrations leading from `from` to `to`, or null when the registry has none. */
export function migrationPath(registry: MigrationRegistry, from: string, to: string): Migration[] | null {
  const path: Migration[] = [];
  let at = from;
  const seen = new Set<string>();
  while (at !== to) {
    if (seen.has(at)) return null;
    seen.add(at);
    const step = registry.find((m) => m.from === at);
    if (step === undefined) return null;
    path.push(step);
    at = step.to;
  }
  return path;
}

/**
 * Applies the plan due at `height`, if any, and drops the validators' pending signatures of plans
 * (or cancels) for this height or before: a plan not scheduled by its height expires, and the
 * cancel of one that is now applied is void (docs/RULES.md, "Upgrade plans").
 */
export function applyDueUpgrade(
  d: StateDraft,
  height: number,
  registry: MigrationRegistry,
  input: MigrationInput = { genesisHash: null },
): string | null {
  for (const [validator, signal] of d.upgradeSignals())
    if (signal.plan.upgradeHeight <= height) d.setUpgradeSignal(validator, null);
  const plan = d.upgrades.find((u) => u.upgradeHeight === height);
  if (plan === undefined) return null;
  const path = migrationPath(registry, d.protocolVersion, plan.targetVersion);
  if (path === null) {
    throw new BlockError(
      'UPGRADE_UNSUPPORTED',
      `height ${height} upgrades the protocol from ${d.protocolVersion} to ${plan.targetVersion}, ` +
        'and this node has no migration for it: run a node version that supports it',
    );
  }
  for (const step of path) step.migrate(d, input);
  d.protocolVersion = plan.targetVersion;
  return plan.targetVersion;
}

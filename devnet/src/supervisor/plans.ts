/**
 * The upgrade plans a node's GET /upgrades shows (docs/PROTOCOL.md, "Upgrade plans"), read
 * leniently: every object with a `target_version` and an `upgrade_height`, wherever it is in the
 * answer, but those not yet scheduled (`scheduled: false`); and which of them a node halted for.
 * Pure.
 */
export interface KnownPlan {
  readonly target_version: string;
  readonly upgrade_height: number;
}

export function plansIn(answer: unknown): KnownPlan[] {
  const found: KnownPlan[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (
      typeof o.target_version === 'string' &&
      typeof o.upgrade_height === 'number' &&
      o.scheduled !== false &&
      !found.some((p) => p.target_version === o.target_version && p.upgrade_height === o.upgrade_height)
    )
      found.push({ target_version: o.target_version, upgrade_height: o.upgrade_height });
    for (const x of Object.values(o)) visit(x, depth + 1);
  };
  visit(answer, 0);
  return found;
}

/** The plan a node last seen at `height` halted for: the first above that height. */
export function planHaltedFor(plans: readonly KnownPlan[], height: number): KnownPlan | null {
  return (
    [...plans]
      .filter((p) => p.upgrade_height > height)
      .sort((a, b) => a.upgrade_height - b.upgrade_height)[0] ?? null
  );
}

/** At the start of each block, unbonding entries whose completion height has come are paid back. */
import type { StateDraft } from '../state/draft.js';
import type { UnbondingEntry } from '../state/types.js';

export function releaseMatured(d: StateDraft, height: number): UnbondingEntry[] {
  let n = 0;
  while (n < d.unbonding.length && d.unbonding[n]!.completionHeight <= height) n++;
  if (n === 0) return [];
  const released = d.unbonding.splice(0, n);
  for (const e of released) d.credit(e.delegator, e.amount);
  return released;
}

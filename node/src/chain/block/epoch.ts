/**
 * The epoch transition, run at the end of every block whose height is a multiple of the epoch
 * length, in the specification's order:
 *   1. uptime of each ACTIVE validator = produced / (produced + missed) proposer slots this epoch
 *      (a validator with no slot has full uptime);
 *   2. jail those below min_uptime (status JAILED, jail count + 1) — unless that would leave no
 *      active validator, in which case nobody is jailed this epoch (the chain must not stop itself);
 *   3. slash by jail count: 1st 5%, 2nd 10%, 3rd 100% and EJECTED (permanent); slashed stake is burned;
 *   4. activate INACTIVE validators with stake >= min_stake that registered >= activation_delay
 *      blocks ago, highest stake first (ties: address), while the active set is below max_validators;
 *   5. deactivate ACTIVE validators whose stake is below min_stake (back to INACTIVE) — but never the
 *      last ones: if every active validator is below the minimum, the highest-staked stays active,
 *      for the same reason as in step 2;
 *   6. reset every validator's slot counters.
 */
import { mulPpm } from '../amounts.js';
import type { StateDraft } from '../state/draft.js';
import { compareStrings, type Validator } from '../state/types.js';

export interface EpochEvent {
  readonly kind: 'jailed' | 'slashed' | 'ejected' | 'activated' | 'deactivated';
  readonly validator: string;
  readonly amount?: bigint;
}

export function uptimePpm(v: Pick<Validator, 'slotsProduced' | 'slotsMissed'>): number {
  const slots = v.slotsProduced + v.slotsMissed;
  return slots === 0 ? 1_000_000 : Math.floor((v.slotsProduced * 1_000_000) / slots);
}

export function epochTransition(d: StateDraft, height: number): EpochEvent[] {
  const p = d.params;
  const events: EpochEvent[] = [];
  const active = d.allValidators().filter((v) => v.status === 'ACTIVE');

  const toJail = active.filter((v) => uptimePpm(v) < p.minUptimePpm);
  if (toJail.length < active.length) {
    for (const v of toJail) {
      const jailCount = v.jailCount + 1;
      const slashPpm = p.slashPpm[Math.min(jailCount, 3) - 1]!;
      const slashed = jailCount >= 3 ? v.stake : mulPpm(v.stake, slashPpm);
      const ejected = jailCount >= 3;
      d.setValidator({ ...v, status: ejected ? 'EJECTED' : 'JAILED', jailCount, stake: v.stake - slashed });
      d.burn(slashed);
      events.push({ kind: 'jailed', validator: v.address });
      events.push({ kind: 'slashed', validator: v.address, amount: slashed });
      if (ejected) events.push({ kind: 'ejected', validator: v.address });
    }
  }

  let activeCount = d.allValidators().filter((v) => v.status === 'ACTIVE').length;
  const candidates = d
    .allValidators()
    .filter(
      (v) =>
        v.status === 'INACTIVE' && v.stake >= p.minStake && height - v.registeredHeight >= p.activationDelay,
    )
    .sort((a, b) =>
      a.stake === b.stake ? compareStrings(a.address, b.address) : a.stake > b.stake ? -1 : 1,
    );
  for (const v of candidates) {
    if (activeCount >= p.maxValidators) break;
    d.setValidator({ ...v, status: 'ACTIVE' });
    activeCount++;
    events.push({ kind: 'activated', validator: v.address });
  }

  const stillActive = d.allValidators().filter((v) => v.status === 'ACTIVE');
  const below = stillActive
    .filter((v) => v.stake < p.minStake)
    .sort((a, b) =>
      a.stake === b.stake ? compareStrings(a.address, b.address) : a.stake < b.stake ? -1 : 1,
    );
  // Lowest stake first; the last one is kept when nobody at or above the minimum remains.
  const deactivate = below.length === stillActive.length ? below.slice(0, -1) : below;
  for (const v of deactivate) {
    d.setValidator({ ...v, status: 'INACTIVE' });
    events.push({ kind: 'deactivated', validator: v.address });
  }

  for (const v of d.allValidators()) {
    if (v.slotsProduced !== 0 || v.slotsMissed !== 0)
      d.setValidator({ ...v, slotsProduced: 0, slotsMissed: 0 });
  }
  return events;
}

/**
 * The proposer schedule (DESIGN decision 8, docs/CONSENSUS.md). Active validators are ordered
 * by consensus address (byte order of the Bech32 string); the proposer of height h, round r is
 * active[(h + r) % n]. Round 0 is the specification's height % n.
 */
import { BlockError } from '../errors.js';
import { type ChainState, compareStrings, type Validator } from '../state/types.js';

export function activeValidators(state: Pick<ChainState, 'validators'>): Validator[] {
  return [...state.validators.values()]
    .filter((v) => v.status === 'ACTIVE')
    .sort((a, b) => compareStrings(a.address, b.address));
}

export function proposerIndex(height: number, round: number, activeCount: number): number {
  return (height + round) % activeCount;
}

/** The validator due to propose at (height, round) on top of `state` (the state after height - 1). */
export function scheduledProposer(
  state: Pick<ChainState, 'validators'>,
  height: number,
  round: number,
): Validator {
  const active = activeValidators(state);
  if (active.length === 0)
    throw new BlockError('NO_ACTIVE_VALIDATORS', 'no active validators: the chain cannot progress');
  return active[proposerIndex(height, round, active.length)]!;
}

/**
 * For a block finalized in `round`, how many slots each active validator missed (rounds
 * 0 .. round-1, whose proposers did not deliver) and who produced it, as indexes into `active`
 * (in proposer order: the state's validators, or /validators' active ones by proposer_index).
 * Arithmetic, so a huge round costs O(n), not O(round).
 */
export function slotOutcome(
  active: readonly unknown[],
  height: number,
  round: number,
): { missed: number[]; producer: number } {
  const n = active.length;
  const missed = new Array<number>(n).fill(0);
  const full = Math.floor(round / n);
  for (let i = 0; i < n; i++) missed[i] = full;
  for (let r = full * n; r < round; r++) missed[proposerIndex(height, r, n)]! += 1;
  return { missed, producer: proposerIndex(height, round, n) };
}

/**
 * Equivocation evidence consensus found: each pair kept once (the newest MAX_EVIDENCE) and counted
 * in chain_equivocations_total.
 */
import type { Equivocation } from '../chain/index.js';
import type { ChainServiceDeps } from './deps.js';

/** False when that pair was already kept. */
export async function recordEquivocation(
  deps: Pick<ChainServiceDeps, 'evidence' | 'metrics'>,
  e: Equivocation,
): Promise<boolean> {
  if (!(await deps.evidence.add(e))) return false;
  deps.metrics.equivocations.inc({ validator: e.validator });
  return true;
}

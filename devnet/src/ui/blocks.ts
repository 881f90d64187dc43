/**
 * A block as the panel's stream shows it: its hash, proposer, transaction count, the round it
 * was decided in and the slots missed before it. A block decided in round r > 0 was made by the
 * round-r proposer after the proposers of rounds 0 … r−1 did not deliver, each a missed slot
 * (docs/CONSENSUS.md, "Missed slots and uptime"); the node's own rule (slotOutcome) counts them,
 * over the active set in proposer order as /validators gives it when the block arrives.
 */
import { blockFromJson, blockHash, proposerIndex, slotOutcome } from '@chain-devnet/node/chain';
import type { BlockAnswer, ValidatorAnswer } from '@chain-devnet/node/client';
import type { BlockRow } from './shapes.js';

/** The active validators in proposer order (the order slotOutcome's indexes refer to). */
export function proposerOrder(validators: readonly ValidatorAnswer[]): ValidatorAnswer[] {
  return validators
    .filter((v) => v.proposer_index !== null)
    .sort((a, b) => a.proposer_index! - b.proposer_index!);
}

/**
 * `nameOf` gives the name people know a validator by (its devnet node) from its consensus
 * address. Throws when the node's answer is no block.
 */
export function blockRow(
  json: BlockAnswer,
  active: readonly ValidatorAnswer[],
  nameOf: (validatorAddress: string) => string,
): BlockRow {
  const parsed = blockFromJson(json);
  if (!parsed.ok) throw new Error(`block ${json.header?.height}: ${parsed.reason}`);
  const h = parsed.block.header;
  const missed: { validator: string; slots: number }[] = [];
  if (h.round > 0 && active.length > 0) {
    const n = active.length;
    const slots = slotOutcome(active, h.height, h.round).missed;
    // In the order their rounds came.
    for (let r = 0; r < Math.min(h.round, n); r++) {
      const i = proposerIndex(h.height, r, n);
      missed.push({ validator: nameOf(active[i]!.address), slots: slots[i]! });
    }
  }
  return {
    height: h.height,
    hash: blockHash(h),
    timestamp: h.timestamp,
    round: h.round,
    proposer: nameOf(h.proposerAddress),
    txs: parsed.block.txs.length,
    missed,
  };
}

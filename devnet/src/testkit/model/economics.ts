/**
 * The chain's economics and schedule, written down independently of the node from the rules
 * (docs/RULES.md, the specification): fees per type, block reward, reward split, proposer of a
 * (height, round), proposer slots and uptime. The invariants and the scenarios compute
 * expectations with these from the blocks every node serves, and compare them with what every
 * node reports: a second reading of the rules, not the node's own code. Part of the testkit's
 * model (model/): it depends on nothing else of the testkit.
 *
 * Which rule of docs/RULES.md each models:
 * - BASE_GAS, feeOf: "Accounts and fees" (fixed fees, base_gas x min_gas_price)
 * - blockReward: "Rewards" (10 coins >> floor(h / halving interval))
 * - epochOfBlock: "Rewards" (the reward history's epoch, floor((h-1)/L)) and "Epochs"
 * - mulPpm: the parts-per-million products of "Rewards", "Epochs" and "Validators"
 * - proposerOf, countSlots, uptimePpm: "Proposers, slots and uptime" and "Epochs" (step 1)
 * - splitReward: "Rewards" (commission, delegators' floors, the leftover to the validator)
 */

import type { ChainParams, TxType } from '@chain-devnet/node/chain';
import type { BlockAnswer } from '@chain-devnet/node/client';
import type { ActiveSet } from './activeSet.js';

/**
 * Written from RULES.md, not taken from the node (the model checks the node), but keyed by the
 * node's one list of types: a type added there is a compile error here until the model has it.
 */
export const BASE_GAS: Readonly<Record<TxType, bigint>> = {
  TRANSFER: 21_000n,
  STAKE: 40_000n,
  UNSTAKE: 40_000n,
  DELEGATE: 35_000n,
  UNDELEGATE: 35_000n,
  UNJAIL: 50_000n,
  UPDATE_VALIDATOR: 30_000n,
  SUBMIT_RESULT: 80_000n,
  UPGRADE_PLAN: 30_000n,
  UPGRADE_CANCEL: 30_000n,
};

/** The fixed fee of a type at the chain's gas price. */
export function feeOf(type: string, p: ChainParams): bigint {
  const gas = (BASE_GAS as Readonly<Record<string, bigint | undefined>>)[type];
  if (gas === undefined) throw new Error(`no base gas for ${type}`);
  return gas * p.minGasPrice;
}

export function blockReward(h: number, p: ChainParams): bigint {
  const halvings = Math.floor(h / p.halvingInterval);
  return halvings >= 256 ? 0n : p.initialBlockReward >> BigInt(halvings);
}

/** The epoch a block's rewards are recorded under: floor((h - 1) / L). */
export function epochOfBlock(h: number, p: ChainParams): number {
  return Math.floor((h - 1) / p.epochLength);
}

export const mulPpm = (amount: bigint, ppm: number) => (amount * BigInt(ppm)) / 1_000_000n;

export function proposerOf(set: ActiveSet, h: number, round: number): string {
  return set[(h + round) % set.length]!;
}

export interface Slots {
  produced: number;
  missed: number;
}

/** Proposer slots in `blocks`: the round's proposer produced, the proposers of earlier rounds missed. */
export function countSlots(
  blocks: readonly BlockAnswer[],
  setFor: (h: number) => ActiveSet,
): Map<string, Slots> {
  const out = new Map<string, Slots>();
  const at = (a: string) => {
    let s = out.get(a);
    if (s === undefined) {
      s = { produced: 0, missed: 0 };
      out.set(a, s);
    }
    return s;
  };
  for (const b of blocks) {
    const h = b.header.height;
    const set = setFor(h);
    for (const a of set) at(a);
    for (let r = 0; r < b.header.round; r++) at(proposerOf(set, h, r)).missed++;
    at(proposerOf(set, h, b.header.round)).produced++;
  }
  return out;
}

export function uptimePpm(s: Slots): number {
  const n = s.produced + s.missed;
  return n === 0 ? 1_000_000 : Math.floor((s.produced * 1_000_000) / n);
}

/**
 * A block's `total` (reward + fees of its successful transactions) as the proposer's split:
 * commission = floor(total x rate); each delegator floor((total - commission) x amount / delegated);
 * the reward address gets the rest. Returns amounts by address.
 */
export function splitReward(
  total: bigint,
  rewardAddress: string,
  commissionPpm: number,
  delegations: ReadonlyMap<string, bigint>,
): Map<string, bigint> {
  const delegated = [...delegations.values()].reduce((a, b) => a + b, 0n);
  const out = new Map<string, bigint>();
  if (delegated === 0n) {
    out.set(rewardAddress, total);
    return out;
  }
  const pool = total - mulPpm(total, commissionPpm);
  let given = 0n;
  for (const [who, amount] of delegations) {
    const share = (pool * amount) / delegated;
    given += share;
    out.set(who, (out.get(who) ?? 0n) + share);
  }
  out.set(rewardAddress, (out.get(rewardAddress) ?? 0n) + total - given);
  return out;
}

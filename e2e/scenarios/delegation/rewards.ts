/**
 * What the rules (docs/RULES.md, "Rewards") pay from the blocks of the validator delegated to in
 * scenario 5: each block's reward plus the fees of its transactions that executed, split by the
 * validator's commission and its delegators' shares, summed by address and epoch. Computed from
 * the blocks a node serves, so that it is compared with what that same node reports.
 */
import assert from 'node:assert/strict';
import {
  blockReward,
  epochOfBlock,
  splitReward,
  type TestnetBase,
  type Wallet,
} from '@chain-devnet/devnet/testkit';
import type { ChainParams } from '@chain-devnet/node/chain';
import type { BlockAnswer, ValidatorAnswer } from '@chain-devnet/node/client';

/** The validator delegated to, and who delegated how much from which height until when. */
export interface Delegations {
  /** The validator's node name and its entry of GET /validators before the scenario. */
  readonly node: string;
  readonly validator: ValidatorAnswer;
  readonly commission: number;
  readonly d1: Wallet;
  readonly d2: Wallet;
  /** Amounts whose shares leave wei over to the validator. */
  readonly a1: bigint;
  readonly a2: bigint;
  /** Heights of the DELEGATEs. */
  readonly hd1: number;
  readonly hd2: number;
  /** Height of delegator 1's UNDELEGATE; 0 before it. */
  readonly hu: number;
}

/** Outcome of included transactions by node and hash (final once in a block). */
const outcomes = new Map<string, 'confirmed' | 'failed'>();

/** The fees a block's proposer earns: those of its transactions that executed. */
async function feesOf(net: TestnetBase, node: string, b: BlockAnswer): Promise<bigint> {
  let fees = 0n;
  for (const t of b.txs) {
    const key = `${node} ${t.tx_hash}`;
    let status = outcomes.get(key);
    if (status === undefined) {
      const r = await net.chain.receipt(node, t.tx_hash);
      assert.ok(
        r !== null && r.status !== 'pending',
        `${node}: receipt of ${t.tx_hash} in block ${b.header.height}: ${JSON.stringify(r)}`,
      );
      status = r.status;
      outcomes.set(key, status);
    }
    if (status === 'confirmed') fees += BigInt(t.fee);
  }
  return fees;
}

/** The epoch of the first delegation: rewards are compared from its start. */
export const firstEpochOf = (d: Delegations, p: ChainParams): number =>
  epochOfBlock(Math.min(d.hd1, d.hd2), p);

/** Who delegates what at height h, by the rules: from the DELEGATE on, until the UNDELEGATE. */
function delegationsAt(d: Delegations, h: number): Map<string, bigint> {
  const m = new Map<string, bigint>();
  if (h >= d.hd1 && (d.hu === 0 || h < d.hu)) m.set(d.d1.address, d.a1);
  if (h >= d.hd2) m.set(d.d2.address, d.a2);
  return m;
}

/** Rewards by address and epoch, for every block of `node` from the start of the first epoch to upTo. */
export async function expectedRewards(
  net: TestnetBase,
  d: Delegations,
  node: string,
  upTo: number,
): Promise<Map<string, Map<number, bigint>>> {
  const p = net.params;
  const commissionPpm = Math.round(d.commission * 1e6);
  const out = new Map<string, Map<number, bigint>>();
  for (const b of await net.chain.blocksOf(node, firstEpochOf(d, p) * p.epochLength + 1, upTo)) {
    if (b.header.proposer_address !== d.validator.address) continue;
    const h = b.header.height;
    const total = blockReward(h, p) + (await feesOf(net, node, b));
    for (const [who, amount] of splitReward(
      total,
      d.validator.reward_address,
      commissionPpm,
      delegationsAt(d, h),
    )) {
      const byEpoch = out.get(who) ?? new Map<number, bigint>();
      const e = epochOfBlock(h, p);
      byEpoch.set(e, (byEpoch.get(e) ?? 0n) + amount);
      out.set(who, byEpoch);
    }
  }
  return out;
}

/** Every reward of `who` by the rules, from `node`'s blocks up to upTo. */
export async function rewardsSoFar(
  net: TestnetBase,
  d: Delegations,
  node: string,
  upTo: number,
  who: string,
): Promise<bigint> {
  return [...((await expectedRewards(net, d, node, upTo)).get(who)?.values() ?? [])].reduce(
    (a, b) => a + b,
    0n,
  );
}

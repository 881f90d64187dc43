/**
 * 5 Delegation and rewards: two accounts DELEGATE to a validator whose commission was changed;
 * the rewards of every account involved, per epoch, equal the block rewards plus fees of the
 * validator's blocks split by commission and share, to the wei, on every node, and so do their
 * balances. UNDELEGATE creates an unbonding entry with creation and completion heights and
 * blocks_remaining counting down; the amount returns to the balance at the completion height.
 */
import assert from 'node:assert/strict';
import {
  blockReward,
  COIN,
  epochOfBlock,
  feeOf,
  splitReward,
  type Testnet,
  Wallet,
} from '@chain-devnet/devnet/testkit';
import { waitFor } from '@chain-devnet/kit/wait';
import type { BlockAnswer } from '@chain-devnet/node/client';
import type { Scenario } from './scenario.js';

/** Outcome of included transactions by node and hash (final once in a block). */
const outcomes = new Map<string, 'confirmed' | 'failed'>();

/** The fees a block's proposer earns: those of its transactions that executed. */
async function feesOf(net: Testnet, node: string, b: BlockAnswer): Promise<bigint> {
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

export const delegation: Scenario = {
  id: 5,
  title: 'delegation and rewards: per-epoch rewards split by commission and share to the wei; unbonding',
  async run(net) {
    const { chain, txs, model } = net;
    const names = net.names();
    const p = net.params;
    await model.syncTo(await net.synced());
    // A validator nobody else delegates to, whose node runs.
    const vs = (await chain.validators(names[0]!)).validators;
    const found = net
      .validatorNodes()
      .find((n) => vs.some((v) => v.name === n && v.total_delegated === '0') && n !== names[0]);
    assert.ok(found !== undefined, 'no active validator without delegations to delegate to');
    const vNode: string = found;
    const v = vs.find((x) => x.name === vNode)!;

    // An unusual commission, so the split is not the default's.
    const commission = 0.137;
    const upd = await net.tx('UPDATE_VALIDATOR', { from: vNode, commission: String(commission) });
    assert.equal(upd.receipt?.status, 'confirmed', `UPDATE_VALIDATOR: ${JSON.stringify(upd)}`);
    const hCommission = await chain.confirmedEverywhere(upd.tx_hash);
    for (const n of names) {
      await chain.waitHeight(hCommission, [n]);
      const { height, value } = await chain.consistent(n, () => chain.validatorOf(n, vNode));
      assert.equal(value.commission_rate, commission, `${n} at height ${height}: commission of ${vNode}`);
    }
    const commissionPpm = Math.round(commission * 1e6);

    const d1 = Wallet.random('delegator-1');
    const d2 = Wallet.random('delegator-2');
    const funded = 100n * COIN;
    await txs.fund(txs.faucet(), [d1, d2], funded, names[0]!);
    // Amounts whose shares leave wei over to the validator.
    const a1 = 7n * COIN + 3n;
    const a2 = 3n * COIN + 1n;
    const s1 = await txs.send(d1, { type: 'DELEGATE', to: v.address, amount: a1, nonce: 0 }, names[0]!);
    const s2 = await txs.send(d2, { type: 'DELEGATE', to: v.address, amount: a2, nonce: 0 }, names.at(-1)!);
    const hd1 = await chain.confirmedEverywhere(s1.hash);
    const hd2 = await chain.confirmedEverywhere(s2.hash);

    for (const n of names) {
      const { height: hr, value: d } = await chain.consistent(n, () =>
        net.node(n).rpc.delegations(d1.address),
      );
      assert.equal(BigInt(d.total_delegated), a1, `${n} at height ${hr}: delegator 1's total_delegated`);
      assert.deepEqual(
        d.delegations.map((x) => ({ ...x, amount: BigInt(x.amount) })),
        [
          {
            validator: v.address,
            amount: a1,
            created_height: hd1,
            validator_name: vNode,
            validator_commission: commission,
          },
        ],
        `${n} at height ${hr}: delegator 1's delegations`,
      );
      const { height, value } = await chain.consistent(n, () => chain.validatorOf(n, vNode));
      assert.equal(
        BigInt(value.total_delegated),
        a1 + a2,
        `${n} at height ${height}: total_delegated of ${vNode}`,
      );
    }

    // Who gets what from each block from the first delegation on, by the rules.
    let hu = 0; // UNDELEGATE of delegator 1, below
    const delegationsAt = (h: number) => {
      const m = new Map<string, bigint>();
      if (h >= hd1 && (hu === 0 || h < hu)) m.set(d1.address, a1);
      if (h >= hd2) m.set(d2.address, a2);
      return m;
    };
    const rewardAddress = v.reward_address;
    const firstEpoch = epochOfBlock(Math.min(hd1, hd2), p);
    const expected = async (node: string, upTo: number) => {
      // Rewards by address and epoch, for every block from the start of the first epoch.
      const out = new Map<string, Map<number, bigint>>();
      for (const b of await chain.blocksOf(node, firstEpoch * p.epochLength + 1, upTo)) {
        if (b.header.proposer_address !== v.address) continue;
        const h = b.header.height;
        const total = blockReward(h, p) + (await feesOf(net, node, b));
        for (const [who, amount] of splitReward(total, rewardAddress, commissionPpm, delegationsAt(h))) {
          const byEpoch = out.get(who) ?? new Map<number, bigint>();
          const e = epochOfBlock(h, p);
          byEpoch.set(e, (byEpoch.get(e) ?? 0n) + amount);
          out.set(who, byEpoch);
        }
      }
      return out;
    };

    // Two whole epochs with the delegations.
    const lastEpoch = epochOfBlock(Math.max(hd1, hd2), p) + 1;
    const end = (lastEpoch + 1) * p.epochLength;
    await chain.waitHeight(end + 1);
    await model.syncTo(end);
    const proposed = (await chain.blocksOf(names[0]!, hd2, end)).filter(
      (b) => b.header.proposer_address === v.address,
    );
    assert.ok(proposed.length > 0, `${vNode} proposed no block in ${hd2}..${end}: no reward to check`);
    for (const n of names) {
      const want = await expected(n, end);
      for (const [who, label] of [
        [d1.address, 'delegator 1'],
        [d2.address, 'delegator 2'],
        [rewardAddress, `${vNode}'s reward address`],
      ] as const) {
        const { height: hr, value: r } = await chain.consistent(n, () => net.node(n).rpc.rewards(who));
        const got = new Map(r.rewards_by_epoch.map((x) => [x.epoch, BigInt(x.amount)]));
        for (let e = firstEpoch; e <= lastEpoch; e++)
          assert.equal(
            got.get(e) ?? 0n,
            want.get(who)?.get(e) ?? 0n,
            `${n} at height ${hr}: rewards of ${label} in epoch ${e} (blocks ${e * p.epochLength + 1}..${(e + 1) * p.epochLength})`,
          );
        assert.equal(
          BigInt(r.total_rewards),
          r.rewards_by_epoch.reduce((s, x) => s + BigInt(x.amount), 0n),
          `${n} at height ${hr}: total_rewards of ${label} is the sum of rewards_by_epoch`,
        );
        if (who !== rewardAddress)
          assert.deepEqual(
            [...got.keys()].filter((e) => e < firstEpoch),
            [],
            `${n} at height ${hr}: ${label} has rewards before it delegated`,
          );
      }
    }

    // Balances to the wei: funding - delegation - fee + every reward so far.
    const balanceOf = async (n: string, w: Wallet, spent: bigint, back = 0n) => {
      const { height, value } = await chain.consistent(n, () => net.node(n).rpc.balance(w.address));
      const rewards = [...((await expected(n, height)).get(w.address)?.values() ?? [])].reduce(
        (a, b) => a + b,
        0n,
      );
      assert.equal(
        BigInt(value.balance),
        funded - spent + rewards + back,
        `${n} at height ${height}: balance of ${w.label}`,
      );
      return height;
    };
    const feeDelegate = feeOf('DELEGATE', p);
    for (const n of names) {
      await balanceOf(n, d1, a1 + feeDelegate);
      await balanceOf(n, d2, a2 + feeDelegate);
    }

    // UNDELEGATE everything of delegator 1.
    const su = await txs.send(
      d1,
      { type: 'UNDELEGATE', to: v.address, amount: a1, nonce: 1 },
      names[1 % names.length]!,
    );
    hu = await chain.confirmedEverywhere(su.hash);
    const completion = hu + p.unbondingBlocks;
    const spent1 = a1 + feeDelegate + feeOf('UNDELEGATE', p);
    for (const n of names) {
      const { height: hr, value: d } = await chain.consistent(n, () =>
        net.node(n).rpc.delegations(d1.address),
      );
      assert.deepEqual(
        d.delegations,
        [],
        `${n} at height ${hr}: delegator 1 still delegates after UNDELEGATE at ${hu}`,
      );
      const { height, value } = await chain.consistent(n, () => chain.validatorOf(n, vNode));
      assert.equal(
        BigInt(value.total_delegated),
        a2,
        `${n} at height ${height}: total_delegated of ${vNode}`,
      );
    }
    // The entry counts down, and the amount comes back exactly at completion_height.
    await Promise.all(
      names.map(async (n) => {
        const remaining = new Set<number>();
        let returned = false;
        await waitFor(
          `${n}: the unbonding of ${a1} wei to complete at ${completion}`,
          net.within(p.unbondingBlocks + 5),
          async () => {
            // Both reads at once: the read counts only when /status gives one height around it,
            // and on a loaded machine two reads one after the other outlasted a 400 ms block
            // often enough that a node's countdown was seen at one value only.
            const { height, value } = await chain.consistent(n, async () => {
              const [u, b] = await Promise.all([
                net.node(n).rpc.unbonding(d1.address),
                net.node(n).rpc.balance(d1.address),
              ]);
              return { u, b };
            });
            const at = `${n} at height ${height}`;
            const rewards = [...((await expected(n, height)).get(d1.address)?.values() ?? [])].reduce(
              (a, b) => a + b,
              0n,
            );
            if (height < completion) {
              assert.deepEqual(
                value.u.unbonding_entries,
                [
                  {
                    validator: v.address,
                    amount: a1.toString(),
                    creation_height: hu,
                    completion_height: completion,
                    blocks_remaining: completion - height,
                  },
                ],
                `${at}: unbonding entries of delegator 1`,
              );
              assert.equal(
                BigInt(value.b.balance),
                funded - spent1 + rewards,
                `${at}: balance while unbonding`,
              );
              remaining.add(completion - height);
              return false;
            }
            assert.deepEqual(
              value.u.unbonding_entries,
              [],
              `${at}: the entry is still there after completion ${completion}`,
            );
            assert.equal(
              BigInt(value.b.balance),
              funded - spent1 + rewards + a1,
              `${at}: balance after the unbonding`,
            );
            returned = true;
            return true;
          },
        );
        assert.ok(returned, `${n}: the unbonding did not complete`);
        assert.ok(
          remaining.size >= 2,
          `${n}: blocks_remaining seen only as ${[...remaining].join(', ')}: no countdown observed`,
        );
      }),
    );

    // Leave the validator as it was found: delegator 2 leaves too.
    const s3 = await txs.send(d2, { type: 'UNDELEGATE', to: v.address, amount: a2, nonce: 1 }, names[0]!);
    await chain.confirmedEverywhere(s3.hash);
  },
};

/**
 * 5 Delegation and rewards: two accounts DELEGATE to a validator whose commission was changed;
 * the rewards of every account involved, per epoch, equal the block rewards plus fees of the
 * validator's blocks split by commission and share, to the wei, on every node, and so do their
 * balances. UNDELEGATE creates an unbonding entry with creation and completion heights and
 * blocks_remaining counting down, read held at every height (net.time: mined a block at a time
 * from the UNDELEGATE's); the amount returns to the balance at the completion height.
 *
 * The phases, in the order they run on the chain: the commission changed, the two delegations,
 * the rewards of two whole epochs, the balances, the UNDELEGATE, its unbonding counted down and
 * returned, and the validator left as it was found (the split itself: rewards.ts).
 */
import assert from 'node:assert/strict';
import { COIN, epochOfBlock, feeOf, type TestnetBase, Wallet } from '@chain-devnet/devnet/testkit';
import type { ValidatorAnswer } from '@chain-devnet/node/client';
import type { Scenario } from '../scenario.js';
import { type Delegations, expectedRewards, firstEpochOf, rewardsSoFar } from './rewards.js';

/** What each delegator is funded with. */
const FUNDED = 100n * COIN;

export const delegation: Scenario<TestnetBase> = {
  id: 5,
  title: 'delegation and rewards: per-epoch rewards split by commission and share to the wei; unbonding',
  async run(net) {
    await net.model.syncTo(await net.synced());
    const target = await validatorWithoutDelegations(net);
    // An unusual commission, so the split is not the default's.
    const commission = 0.137;
    await commissionChanged(net, target.node, commission);
    const delegated = await twoDelegations(net, target, commission);
    await rewardsSplitByEpoch(net, delegated);
    await balancesWithRewards(net, delegated);
    const undelegated = await firstDelegatorUndelegates(net, delegated);
    await unbondingCountsDownAndReturns(net, undelegated);
    // Leave the validator as it was found: delegator 2 leaves too.
    const { d2, a2, validator } = undelegated;
    const s3 = await net.txs.send(
      d2,
      { type: 'UNDELEGATE', to: validator.address, amount: a2, nonce: 1 },
      net.names()[0]!,
    );
    await net.chain.confirmedEverywhere(s3.hash);
  },
};

/** A validator nobody else delegates to, whose node runs. */
async function validatorWithoutDelegations(
  net: TestnetBase,
): Promise<{ node: string; validator: ValidatorAnswer }> {
  const names = net.names();
  const vs = (await net.chain.validators(names[0]!)).validators;
  const found = net
    .validatorNodes()
    .find((n) => vs.some((v) => v.name === n && v.total_delegated === '0') && n !== names[0]);
  assert.ok(found !== undefined, 'no active validator without delegations to delegate to');
  return { node: found, validator: vs.find((x) => x.name === found)! };
}

/** UPDATE_VALIDATOR to `commission`, then that rate on every node. */
async function commissionChanged(net: TestnetBase, vNode: string, commission: number): Promise<void> {
  const { chain } = net;
  const upd = await net.tx('UPDATE_VALIDATOR', { from: vNode, commission: String(commission) });
  assert.equal(upd.receipt?.status, 'confirmed', `UPDATE_VALIDATOR: ${JSON.stringify(upd)}`);
  const hCommission = await chain.confirmedEverywhere(upd.tx_hash);
  for (const n of net.names()) {
    await chain.waitHeight(hCommission, [n]);
    const { height, value } = await chain.consistent(n, () => chain.validatorOf(n, vNode));
    assert.equal(value.commission_rate, commission, `${n} at height ${height}: commission of ${vNode}`);
  }
}

/** Two fresh accounts DELEGATE to the validator; the delegations and its total on every node. */
async function twoDelegations(
  net: TestnetBase,
  target: { node: string; validator: ValidatorAnswer },
  commission: number,
): Promise<Delegations> {
  const { chain, txs } = net;
  const names = net.names();
  const { node: vNode, validator: v } = target;
  const d1 = Wallet.random('delegator-1');
  const d2 = Wallet.random('delegator-2');
  await txs.fund(txs.faucet(), [d1, d2], FUNDED, names[0]!);
  // Amounts whose shares leave wei over to the validator.
  const a1 = 7n * COIN + 3n;
  const a2 = 3n * COIN + 1n;
  const s1 = await txs.send(d1, { type: 'DELEGATE', to: v.address, amount: a1, nonce: 0 }, names[0]!);
  const s2 = await txs.send(d2, { type: 'DELEGATE', to: v.address, amount: a2, nonce: 0 }, names.at(-1)!);
  const hd1 = await chain.confirmedEverywhere(s1.hash);
  const hd2 = await chain.confirmedEverywhere(s2.hash);

  for (const n of names) {
    const { height: hr, value: d } = await chain.consistent(n, () => net.node(n).rpc.delegations(d1.address));
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
  return { node: vNode, validator: v, commission, d1, d2, a1, a2, hd1, hd2, hu: 0 };
}

/** Two whole epochs with the delegations: every account's rewards by epoch, on every node, as the rules split them. */
async function rewardsSplitByEpoch(net: TestnetBase, d: Delegations): Promise<void> {
  const { chain, model } = net;
  const p = net.params;
  const firstEpoch = firstEpochOf(d, p);
  const lastEpoch = epochOfBlock(Math.max(d.hd1, d.hd2), p) + 1;
  const end = (lastEpoch + 1) * p.epochLength;
  await chain.waitHeight(end + 1);
  await model.syncTo(end);
  const proposed = (await chain.blocksOf(net.names()[0]!, d.hd2, end)).filter(
    (b) => b.header.proposer_address === d.validator.address,
  );
  assert.ok(proposed.length > 0, `${d.node} proposed no block in ${d.hd2}..${end}: no reward to check`);
  const rewardAddress = d.validator.reward_address;
  for (const n of net.names()) {
    const want = await expectedRewards(net, d, n, end);
    for (const [who, label] of [
      [d.d1.address, 'delegator 1'],
      [d.d2.address, 'delegator 2'],
      [rewardAddress, `${d.node}'s reward address`],
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
}

/** Balances to the wei on every node: funding - delegation - fee + every reward so far. */
async function balancesWithRewards(net: TestnetBase, d: Delegations): Promise<void> {
  const feeDelegate = feeOf('DELEGATE', net.params);
  const balanceOf = async (n: string, w: Wallet, spent: bigint) => {
    const { height, value } = await net.chain.consistent(n, () => net.node(n).rpc.balance(w.address));
    const rewards = await rewardsSoFar(net, d, n, height, w.address);
    assert.equal(
      BigInt(value.balance),
      FUNDED - spent + rewards,
      `${n} at height ${height}: balance of ${w.label}`,
    );
  };
  for (const n of net.names()) {
    await balanceOf(n, d.d1, d.a1 + feeDelegate);
    await balanceOf(n, d.d2, d.a2 + feeDelegate);
  }
}

/** Delegator 1 UNDELEGATEs everything: no delegation left on any node, the validator's total down to delegator 2's. */
async function firstDelegatorUndelegates(net: TestnetBase, d: Delegations): Promise<Delegations> {
  const { chain } = net;
  const names = net.names();
  // Held from here until the unbonding completed: its countdown is read at every height, held.
  await net.time.pause();
  const su = await net.txs.send(
    d.d1,
    { type: 'UNDELEGATE', to: d.validator.address, amount: d.a1, nonce: 1 },
    names[1 % names.length]!,
  );
  const hu = await net.time.mineIn(su.hash);
  for (const n of names) {
    const { height: hr, value: delegations } = await chain.consistent(n, () =>
      net.node(n).rpc.delegations(d.d1.address),
    );
    assert.deepEqual(
      delegations.delegations,
      [],
      `${n} at height ${hr}: delegator 1 still delegates after UNDELEGATE at ${hu}`,
    );
    const { height, value } = await chain.consistent(n, () => chain.validatorOf(n, d.node));
    assert.equal(
      BigInt(value.total_delegated),
      d.a2,
      `${n} at height ${height}: total_delegated of ${d.node}`,
    );
  }
  return { ...d, hu };
}

/**
 * Held, a block at a time from the UNDELEGATE's: at every height every node's entry counts down
 * (blocks_remaining = completion - height) with the balance unchanged but for rewards, and at
 * completion_height the amount is back; then the chain goes on. No read races a block.
 */
async function unbondingCountsDownAndReturns(net: TestnetBase, d: Delegations): Promise<void> {
  const p = net.params;
  const completion = d.hu + p.unbondingBlocks;
  const spent1 = d.a1 + feeOf('DELEGATE', p) + feeOf('UNDELEGATE', p);
  for (let held = d.hu; ; held = (await net.time.mine(1)).at(-1)!) {
    for (const n of net.names()) {
      const { height, value } = await unbondingAndBalance(net, n, d.d1);
      const at = `${n} at height ${height}`;
      assert.equal(height, held, `${at}: the chain is held at ${held}`);
      const rewards = await rewardsSoFar(net, d, n, height, d.d1.address);
      const done = height >= completion;
      assert.deepEqual(
        value.u.unbonding_entries,
        done
          ? []
          : [
              {
                validator: d.validator.address,
                amount: d.a1.toString(),
                creation_height: d.hu,
                completion_height: completion,
                blocks_remaining: completion - height,
              },
            ],
        `${at}: unbonding entries of delegator 1 (completion at ${completion})`,
      );
      assert.equal(
        BigInt(value.b.balance),
        FUNDED - spent1 + rewards + (done ? d.a1 : 0n),
        `${at}: balance ${done ? 'after' : 'while'} the unbonding`,
      );
    }
    if (held >= completion) break;
  }
  await net.time.resume();
}

/**
 * `w`'s unbonding entries and balance, read at one height. Both reads at once: the read counts
 * only when /status gives one height around it, and on a loaded machine two reads one after the
 * other outlasted a 400 ms block often enough that a node's countdown was seen at one value only.
 */
function unbondingAndBalance(net: TestnetBase, n: string, w: Wallet) {
  return net.chain.consistent(n, async () => {
    const [u, b] = await Promise.all([
      net.node(n).rpc.unbonding(w.address),
      net.node(n).rpc.balance(w.address),
    ]);
    return { u, b };
  });
}

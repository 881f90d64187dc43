/**
 * 4 Staking: a node added with `devnet add`, funded, and its STAKE of the minimum mined under a
 * hold (net.time: no read races the chain) syncs, is INACTIVE until the first epoch boundary at
 * least activation_delay blocks after its STAKE (read held at the STAKE's block and at the block
 * before the boundary), ACTIVE from there on every node, and then proposes at its turn in the
 * larger rotation. A STAKE below the minimum is rejected by every node.
 */
import assert from 'node:assert/strict';
import { COIN, type TestnetBase, Wallet } from '@chain-devnet/devnet/testkit';
import { waitFor } from '@chain-devnet/kit/wait';
import { validatorAddressOf } from '@chain-devnet/node/crypto';
import type { Scenario } from './scenario.js';

/** The validator `devnet add` made: its node, its address, its STAKE's height, the boundary it is due ACTIVE at. */
interface Added {
  readonly name: string;
  readonly address: string;
  readonly hStake: number;
  readonly activation: number;
}

export const staking: Scenario<TestnetBase> = {
  id: 4,
  title: 'staking: an added node with the minimum stake becomes ACTIVE at the right boundary and proposes',
  async run(net) {
    const { chain, model } = net;
    await model.syncTo(await net.synced());
    const nBefore = model.setFor(model.height + 1).length;
    const added = await addedWithMinimumStake(net);
    await inactiveUntilTheBoundary(net, added);
    // It syncs, and agrees with the others.
    const top = await net.synced();
    await chain.assertAgreement(net.names(), Math.max(1, added.hStake - 5), top);
    await activeFromTheBoundary(net, added);
    await proposesAtItsTurn(net, added, nBefore);
    await stakeBelowMinimumRejected(net);
    // Back to the active set it found: the new validator UNSTAKEs everything, its stake unbonds,
    // and it is INACTIVE from the next boundary (its node runs on as a full node).
    const hUnstake = await unstakedAndUnbonding(net, added);
    await inactiveAfterUnstake(net, added, hUnstake, nBefore);
  },
};

/**
 * `devnet add`, funded, then its STAKE of the minimum mined under a hold (the chain held at the
 * STAKE's block, so that its INACTIVE stretch is read on every node however slow the machine);
 * the boundary it is due ACTIVE at.
 */
async function addedWithMinimumStake(net: TestnetBase): Promise<Added> {
  const p = net.params;
  const added = await net.add();
  const name = added.name;
  const funded = await net.tx('TRANSFER', { from: 'account-0', to: name, amount: `${p.minStake + COIN}wei` });
  assert.equal(funded.receipt?.status, 'confirmed', `funding ${name}: ${JSON.stringify(funded)}`);
  await net.time.pause();
  const sent = await net.tx('STAKE', { from: name, amount: `${p.minStake}wei`, name, wait: false });
  assert.equal(sent.submit.status, 'received', `STAKE from ${name}: ${JSON.stringify(sent.submit)}`);
  const hStake = await net.time.mineIn(sent.tx_hash);
  const stakeTx = await net.chain.block(net.names()[0]!, hStake);
  const tx = stakeTx.txs.find((t) => t.tx_hash === sent.tx_hash) as unknown as
    | { pub_key: string }
    | undefined;
  assert.ok(tx !== undefined, `block ${hStake} does not hold the STAKE of ${name}`);
  const address = validatorAddressOf(tx.pub_key);
  // The first boundary at least activation_delay blocks after the STAKE.
  const L = p.epochLength;
  const activation = Math.ceil((hStake + p.activationDelay) / L) * L;
  net.log(`${name} staked ${p.minStake} wei at ${hStake}: due ACTIVE at the boundary ${activation}`);
  return { name, address, hStake, activation };
}

/**
 * INACTIVE until the boundary on every node: read while held at the STAKE's block, then mined to
 * the block before the boundary and read again; the chain goes on after.
 */
async function inactiveUntilTheBoundary(net: TestnetBase, a: Added): Promise<void> {
  const { chain } = net;
  const { name, activation } = a;
  const inactiveAt = async (held: number) => {
    for (const n of net.names()) {
      const v = await chain.validatorOf(n, name);
      assert.equal(v.status, 'INACTIVE', `${n} held at ${held}: ${name} (activation due at ${activation})`);
      assert.equal(v.address, a.address, `${n} at height ${held}: address of ${name}`);
      assert.equal(BigInt(v.power), net.params.minStake, `${n} at height ${held}: power of ${name}`);
      assert.equal(v.is_active, false, `${n} at height ${held}: is_active of ${name}`);
    }
  };
  await inactiveAt(a.hStake);
  await net.time.mine({ height: activation - 1 });
  await inactiveAt(activation - 1);
  await net.time.resume();
}

/** The model (which applies the rules to the blocks) agrees on the boundary, and every node says ACTIVE after it. */
async function activeFromTheBoundary(net: TestnetBase, a: Added): Promise<void> {
  const { chain, model } = net;
  const { name, address, activation } = a;
  await chain.waitHeight(activation + 1);
  await model.syncTo(activation);
  assert.ok(
    model.events.some((e) => e.kind === 'activated' && e.address === address && e.height === activation),
    `the rules activate ${name} at ${model.events
      .filter((e) => e.address === address)
      .map((e) => `${e.kind}@${e.height}`)
      .join(', ')}, not at ${activation}`,
  );
  for (const n of net.names()) {
    const { height, value: v } = await chain.consistent(n, () => chain.validatorOf(n, name));
    assert.equal(v.status, 'ACTIVE', `${n} at height ${height}: ${name} after the boundary ${activation}`);
    assert.equal(v.is_active, true, `${n} at height ${height}: is_active of ${name}`);
    await model.compareWith(n);
  }
}

/** The rotation takes it in from the next block, and it proposes at its turn. */
async function proposesAtItsTurn(net: TestnetBase, a: Added, nBefore: number): Promise<void> {
  const { chain, model } = net;
  const { name, address, activation } = a;
  const names = net.names();
  const set = model.setFor(activation + 1);
  assert.equal(set.length, nBefore + 1, `active validators after ${activation}`);
  const turn = await waitFor(
    `${name} to propose a round-0 block at its turn after ${activation}`,
    net.within(4 * set.length),
    async () => {
      const h = await chain.maxHeight();
      for (let x = activation + 1; x <= h; x++) {
        const b = await chain.block(names[0]!, x);
        if (b.header.round === 0 && b.header.proposer_address === address) return x;
      }
      return null;
    },
  );
  assert.equal(set[turn % set.length], address, `${name} proposed ${turn} out of turn`);
  await chain.waitHeight(Math.max(turn, activation + 2 * set.length));
  await model.checkProposers(names, a.hStake - 1, Math.max(turn, activation + 2 * set.length));
  net.log(`${name} ACTIVE from ${activation + 1}, proposed block ${turn}`);
}

/** Below the minimum stake: rejected by every node, and no validator on any. */
async function stakeBelowMinimumRejected(net: TestnetBase): Promise<void> {
  const { chain, txs } = net;
  const p = net.params;
  const names = net.names();
  const small = Wallet.random('small-staker');
  await txs.fund(txs.faucet(), [small], p.minStake + COIN, names[0]!);
  const below = await txs.build(small, { type: 'STAKE', amount: p.minStake - 1n, nonce: 0 }, names[0]!);
  for (const n of names) {
    const at = `${n} at height ${await chain.height(n)}`;
    const r = await txs.sendBuilt(below, n);
    assert.equal(r.submit.status, 'rejected', `${at}: STAKE of min stake - 1 wei was ${r.submit.status}`);
    assert.match(r.submit.error ?? '', /minimum stake/i, `${at}: why the small STAKE was rejected`);
  }
  await chain.waitBlocks(2);
  for (const n of names) {
    const { height, value } = await chain.consistent(n, () => chain.validators(n));
    assert.ok(
      !value.validators.some((v) => v.address === validatorAddressOf(below.pubKey)),
      `${n} at height ${height}: the rejected staker is a validator`,
    );
  }
}

/** The new validator UNSTAKEs everything; its stake unbonds, on every node. Returns the UNSTAKE's height. */
async function unstakedAndUnbonding(net: TestnetBase, a: Added): Promise<number> {
  const { chain } = net;
  const { name, address } = a;
  const p = net.params;
  const names = net.names();
  const un = await net.tx('UNSTAKE', { from: name, amount: `${p.minStake}wei` });
  assert.equal(un.receipt?.status, 'confirmed', `UNSTAKE from ${name}: ${JSON.stringify(un)}`);
  const hUnstake = await chain.confirmedEverywhere(un.tx_hash);
  const operator = (await chain.validatorOf(names[0]!, name)).operator_address;
  for (const n of names) {
    const { height, value: u } = await chain.consistent(n, () => net.node(n).rpc.unbonding(operator));
    const completion = hUnstake + p.unbondingBlocks;
    assert.deepEqual(
      u.unbonding_entries,
      height < completion
        ? [
            {
              validator: address,
              amount: p.minStake.toString(),
              creation_height: hUnstake,
              completion_height: completion,
              blocks_remaining: completion - height,
            },
          ]
        : [],
      `${n} at height ${height}: unbonding of ${name}'s stake`,
    );
  }
  return hUnstake;
}

/** INACTIVE from the boundary after the UNSTAKE, by the rules and on every node: the active set as it was found. */
async function inactiveAfterUnstake(
  net: TestnetBase,
  a: Added,
  hUnstake: number,
  nBefore: number,
): Promise<void> {
  const { chain, model } = net;
  const { name, address } = a;
  const names = net.names();
  const deactivation = net.boundaryFrom(hUnstake);
  await chain.waitHeight(deactivation + 1);
  await model.syncTo(deactivation);
  assert.ok(
    model.events.some((e) => e.kind === 'deactivated' && e.address === address && e.height === deactivation),
    `the rules deactivate ${name} at ${deactivation} after its UNSTAKE at ${hUnstake}`,
  );
  for (const n of names) {
    const { height, value: v } = await chain.consistent(n, () => chain.validatorOf(n, name));
    assert.equal(
      v.status,
      'INACTIVE',
      `${n} at height ${height}: ${name} after UNSTAKE and the boundary ${deactivation}`,
    );
    assert.equal(v.power, '0', `${n} at height ${height}: power of ${name} after UNSTAKE`);
    await model.compareWith(n);
  }
  assert.equal(model.setFor(deactivation + 1).length, nBefore, `active validators after ${deactivation}`);
}

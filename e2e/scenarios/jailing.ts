/**
 * 6 Jailing: a validator stopped right after an epoch boundary is jailed at the next boundary
 * (its uptime below min_uptime), on every node, with 5% of its stake slashed and total_burned
 * grown by exactly that; the rotation goes on without it. Started again, it syncs, sends UNJAIL
 * paying the unjail fee (burned), and is active and proposing again. A second downtime costs 10%.
 */
import assert from 'node:assert/strict';
import {
  blockReward,
  feeOf,
  type ModelValidator,
  mulPpm,
  type TestnetBase,
} from '@chain-devnet/devnet/testkit';
import { waitFor } from '@chain-devnet/kit/wait';
import type { Scenario } from './scenario.js';

/** total_burned of every named node's /metrics equals the model's at the height scraped. */
async function burnedMatches(net: TestnetBase, names: readonly string[]): Promise<void> {
  for (const n of names) {
    const { height, metrics } = await net.chain.metricsAt(n);
    await net.model.syncTo(height);
    assert.equal(
      metrics.get('chain_total_burned'),
      Number(net.model.burnedAfter(height)),
      `${n} at height ${height}: chain_total_burned`,
    );
  }
}

/** Waits until the height is just past an epoch boundary, so a whole epoch lies ahead. */
async function justAfterBoundary(net: TestnetBase, names: readonly string[]): Promise<number> {
  const L = net.params.epochLength;
  return waitFor(`a height just past an epoch boundary`, net.within(L + 2), async () => {
    const h = await net.chain.maxHeight(names);
    return h % L >= 1 && h % L <= Math.max(1, Math.floor(L / 4)) ? h : null;
  });
}

/** Waits until `name` proposes a round-0 block at its turn after `after`; returns its height. */
async function proposesInTurn(net: TestnetBase, name: string, after: number): Promise<number> {
  const address = net.model.byName(name).address;
  let h = after + 1;
  return waitFor(`${name} to propose a round-0 block after ${after}`, net.within(4 * 8), async () => {
    const top = await net.chain.maxHeight();
    await net.model.syncTo(top);
    for (; h <= top; h++) {
      const b = await net.chain.block(net.names()[0]!, h);
      if (b.header.round === 0 && b.header.proposer_address === address) return h;
    }
    return null;
  });
}

/**
 * Stops `victim` just after a boundary and waits for the boundary where the model (uptime from
 * the blocks) jails it; checks every running node there. Returns the jail height and the slash.
 */
async function downtime(
  net: TestnetBase,
  victim: string,
  jailCount: number,
): Promise<{ at: number; slash: bigint }> {
  const { model, params } = net;
  const running = net.names().filter((n) => n !== victim);
  const { hStop, before } = await stoppedJustAfterBoundary(net, victim, running);
  const at = await boundaryThatJails(net, victim, running, hStop, before.address);
  const slash = mulPpm(before.stake, params.slashPpm[jailCount - 1]!);
  const jailed = model.at(at).get(before.address)!;
  assert.equal(jailed.stake, before.stake - slash, `the model's slash at ${at}`);
  net.log(`${victim} stopped at ${hStop}, jailed at ${at}: slashed ${slash} wei (jail ${jailCount})`);
  await jailedAndSlashedEverywhere(net, victim, running, { at, jailCount, stake: before.stake, slash });
  await rotationWithout(net, victim, running, at, before.address);
  return { at, slash };
}

/** `victim` stopped just after a boundary, ACTIVE there by the model; burned so far on every running node. */
async function stoppedJustAfterBoundary(
  net: TestnetBase,
  victim: string,
  running: readonly string[],
): Promise<{ hStop: number; before: ModelValidator }> {
  await justAfterBoundary(net, net.names());
  await net.node(victim).stop();
  const hStop = await net.chain.maxHeight(running);
  await net.model.syncTo(hStop);
  const before = net.model.byName(victim, hStop);
  assert.equal(before.status, 'ACTIVE', `${victim} at height ${hStop} before its downtime`);
  // Burned before the jailing, on every node (it changes only at the boundary here).
  await burnedMatches(net, running);
  return { hStop, before };
}

/**
 * The boundary where its uptime is below the minimum, by the model: the next one, or (if it
 * proposed before stopping) the one after.
 */
async function boundaryThatJails(
  net: TestnetBase,
  victim: string,
  running: readonly string[],
  hStop: number,
  address: string,
): Promise<number> {
  const { chain, model, params } = net;
  let at = 0;
  for (let b = net.boundaryFrom(hStop); at === 0; b += params.epochLength) {
    assert.ok(
      b <= net.boundaryFrom(hStop) + params.epochLength,
      `${victim} not jailed within two boundaries of ${hStop}`,
    );
    await chain.waitHeight(b + 1, running, b + 1 - hStop);
    await model.syncTo(b);
    if (model.events.some((e) => e.height === b && e.kind === 'jailed' && e.address === address)) at = b;
  }
  if (at !== net.boundaryFrom(hStop))
    net.log(`${victim} proposed enough before it stopped at ${hStop} to pass one boundary: jailed at ${at}`);
  return at;
}

/** On every running node at the jail height: JAILED, its power slashed; the slash burned. */
async function jailedAndSlashedEverywhere(
  net: TestnetBase,
  victim: string,
  running: readonly string[],
  j: { at: number; jailCount: number; stake: bigint; slash: bigint },
): Promise<void> {
  const { chain, model, params } = net;
  const { at, jailCount, slash } = j;
  const slashPpm = params.slashPpm[jailCount - 1]!;
  for (const n of running) {
    const { height, value: v } = await chain.consistent(n, () => chain.validatorOf(n, victim));
    const who = `${n} at height ${height}: ${victim}`;
    assert.ok(height >= at, `${n} read at ${height}, before the boundary ${at}`);
    assert.equal(v.status, 'JAILED', `${who} status`);
    assert.equal(v.is_jailed, true, `${who} is_jailed`);
    assert.equal(v.is_active, false, `${who} is_active`);
    assert.equal(v.jail_count, jailCount, `${who} jail_count`);
    assert.equal(BigInt(v.power), j.stake - slash, `${who} power after a ${slashPpm / 1e4}% slash`);
    await model.compareWith(n);
  }
  await burnedMatches(net, running);
  assert.equal(model.burnedAfter(at) - model.burnedAfter(at - 1), slash, `burned at ${at} is the slash`);
}

/** The rotation goes on without it, on every running node: two rotations of the smaller set. */
async function rotationWithout(
  net: TestnetBase,
  victim: string,
  running: readonly string[],
  at: number,
  address: string,
): Promise<void> {
  const { model } = net;
  const n = model.setFor(at + 1).length;
  assert.ok(!model.setFor(at + 1).includes(address), `${victim} still in the schedule after ${at}`);
  await net.chain.waitHeight(at + 2 * n, running);
  await model.checkProposers(running, at - net.params.epochLength + 1, at + 2 * n);
}

/** Starts `victim`, lets it sync, sends UNJAIL; checks the fee, the burn, and that it proposes again. */
async function comeBack(net: TestnetBase, victim: string): Promise<void> {
  const { chain, model, params } = net;
  const names = net.names();
  await net.node(victim).start();
  await net.synced();
  const account = (await chain.validatorOf(names[0]!, victim)).operator_address;
  // Its balance does not move while it is jailed (no block, no reward).
  const before = await chain.consistent(names[0]!, () => net.node(names[0]!).rpc.balance(account));
  const r = await net.tx('UNJAIL', { from: victim });
  assert.equal(r.receipt?.status, 'confirmed', `UNJAIL from ${victim}: ${JSON.stringify(r)}`);
  const hu = await chain.confirmedEverywhere(r.tx_hash);
  await model.syncTo(hu);
  assert.equal(model.byName(victim, hu).status, 'ACTIVE', `the model: ${victim} after UNJAIL at ${hu}`);
  // Balance: minus the unjail fee and the UNJAIL fee, plus the rewards of its blocks since.
  const address = model.byName(victim).address;
  for (const n of names) {
    const { height, value } = await chain.consistent(n, () => net.node(n).rpc.balance(account));
    let rewards = 0n;
    for (const b of await chain.blocksOf(n, before.height + 1, height))
      if (b.header.proposer_address === address) {
        let fees = 0n;
        for (const t of b.txs)
          if ((await chain.receipt(n, t.tx_hash))?.status === 'confirmed') fees += BigInt(t.fee);
        rewards += blockReward(b.header.height, params) + fees;
      }
    assert.equal(
      BigInt(value.balance),
      BigInt(before.value.balance) - params.unjailFee - feeOf('UNJAIL', params) + rewards,
      `${n} at height ${height}: ${victim}'s balance after UNJAIL at ${hu} (fee ${params.unjailFee} wei burned)`,
    );
    await model.compareWith(n);
  }
  await burnedMatches(net, names);
  assert.equal(
    model.burnedAfter(hu) - model.burnedAfter(hu - 1),
    params.unjailFee,
    `burned at ${hu} is the unjail fee`,
  );
  // Active from the next block: in the schedule, and proposing at its turn.
  assert.ok(model.setFor(hu + 1).includes(address), `${victim} not in the schedule after UNJAIL at ${hu}`);
  const h = await proposesInTurn(net, victim, hu);
  await model.checkProposers(names, hu - 2, h);
  net.log(`${victim} unjailed at ${hu}, proposed at ${h}`);
}

export const jailing: Scenario<TestnetBase> = {
  id: 6,
  title: 'jailing: a stopped validator jailed at the boundary with 5% slashed; unjailed; 10% the second time',
  async run(net) {
    const { model, chain } = net;
    const names = net.names();
    await model.syncTo(await net.synced());
    const vs = (await chain.validators(names[0]!)).validators;
    const victim = net
      .validatorNodes()
      .filter((n) => n !== names[0] && vs.some((v) => v.name === n && v.total_delegated === '0'))
      .at(0);
    assert.ok(victim !== undefined, 'no active validator without delegations to stop');
    const jails = model.byName(victim).jailCount;
    assert.ok(jails <= 1, `${victim} was already jailed ${jails} times: a third jailing ejects it`);
    await downtime(net, victim, jails + 1);
    await comeBack(net, victim);
    if (jails === 0) {
      await downtime(net, victim, 2);
      await comeBack(net, victim);
    }
    for (const n of names) await model.compareWith(n);
  },
};

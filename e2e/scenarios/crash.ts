/**
 * 8 Crash and catch-up: under a steady load of transfers, a validator is killed (SIGKILL); the
 * others go on, it is started again, catches up and agrees with them at every height; no
 * transaction confirmed anywhere is missing or different on any node, balances are exact.
 */
import assert from 'node:assert/strict';
import { COIN, type Load, recover, type TestnetBase } from '@chain-devnet/devnet/testkit';
import type { Scenario } from './scenario.js';
import { snapshotsAgree } from './snapshots.js';

export const crash: Scenario<TestnetBase> = {
  id: 8,
  title: 'crash and catch-up: a validator killed under load catches up; no confirmed transaction lost',
  async run(net) {
    const { chain, model } = net;
    const names = net.names();
    await model.syncTo(await net.synced());
    const victim = net
      .validatorNodes()
      .filter((n) => n !== names[0])
      .at(-1);
    assert.ok(victim !== undefined, 'no validator node to kill');

    // Three accounts sending transfers to each other, one at a time each, for as long as it takes
    // (the duration is only the bound: the load is stopped below).
    const funding = 20n * COIN;
    const load = await net.load({ accounts: 3, fund: `${funding}wei`, duration: 600 });
    try {
      await killedUnderLoadCatchesUp(net, victim, load);
    } finally {
      const r = await load.stop();
      net.log(`load: ${JSON.stringify(r)}`);
    }

    const h = await net.synced();
    await chain.assertAgreement(names, 1, h);
    await nothingConfirmedLost(net, load, funding);
    // The schedule held through the crash (missed slots of the victim included), then health.
    await model.checkProposers(names, 1, h);
    await recover(net);
  },
};

/**
 * Under the load: `victim` killed, the others and the confirmations go on; started again, it
 * catches up and took the snapshots of the heights it fetched from its peers, as the others did.
 */
async function killedUnderLoadCatchesUp(net: TestnetBase, victim: string, load: Load): Promise<void> {
  const { chain } = net;
  const others = net.names().filter((n) => n !== victim);
  await chain.waitBlocks(4);
  assert.ok(load.confirmed().length > 0, 'the load confirmed nothing in 4 blocks');

  await net.node(victim).kill();
  assert.equal(await net.node(victim).state(), 'stopped', `${victim} after devnet kill`);
  const hKill = await chain.maxHeight(others);
  net.log(`killed ${victim} at height ${hKill}`);
  // The others go on, and so do confirmations.
  await chain.waitBlocks(6, others);
  const during = load.confirmedAfter(hKill);
  assert.ok(during > 0, `no transfer confirmed while ${victim} was down (after height ${hKill})`);

  await net.node(victim).start();
  const target = await chain.maxHeight(others);
  await chain.waitHeight(target, [victim], target - hKill + 5);
  net.log(`${victim} caught up to ${target} (killed at ${hKill}); ${during} transfers confirmed meanwhile`);
  // The victim took the snapshots of the heights it fetched from its peers, as the others did.
  // Compared at once: only the newest snapshots are kept, and the load goes on.
  const snaps = await snapshotsAgree(net);
  assert.ok(
    snaps.heights.some((x) => x > hKill && x <= target),
    `no snapshot height of ${victim}'s downtime (${hKill + 1}..${target}) left to compare: ${snaps.heights.join(', ')}`,
  );
  await chain.waitBlocks(3);
}

/** Every confirmed transfer, on every node: confirmed, at the same height, in that block; balances and nonces exact. */
async function nothingConfirmedLost(net: TestnetBase, load: Load, funding: bigint): Promise<void> {
  const { chain } = net;
  const names = net.names();
  for (const c of load.confirmed()) {
    const at = await chain.confirmedEverywhere(c.hash, names);
    assert.equal(at, c.height, `transfer ${c.hash}: confirmed at ${c.height} during the load, now at ${at}`);
  }
  const funded = new Map(load.wallets.map((w) => [w.address, funding]));
  const want = load.expectedBalances(funded);
  for (const n of names)
    for (const w of load.wallets) {
      const { height, value } = await chain.consistent(n, () => net.node(n).rpc.balance(w.address));
      const e = want.get(w.address)!;
      assert.equal(BigInt(value.balance), e.balance, `${n} at height ${height}: balance of ${w.label}`);
      assert.equal(value.nonce, e.nonce, `${n} at height ${height}: nonce of ${w.label}`);
    }
  net.log(`${load.confirmed().length} transfers confirmed and found on every node`);
}

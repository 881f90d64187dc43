/**
 * 2 Rotation: two full rotations of round-0 blocks whose proposer_address is the validator at
 * height % (active count) in address order, on every node; every block since genesis (round r:
 * (height + r) % count) checked against the schedule replayed from the chain's history.
 */
import assert from 'node:assert/strict';
import type { TestnetBase } from '@chain-devnet/devnet/testkit';
import type { Scenario } from './scenario.js';

export const rotation: Scenario<TestnetBase> = {
  id: 2,
  title: 'rotation: round-0 proposer = active[height % n] for two full rotations on every node',
  async run(net) {
    const names = net.names();
    const start = await net.synced();
    await net.model.syncTo(start);
    // The proposer order every node publishes (proposer_index) is the address order.
    for (const n of names) await net.chain.activeSet(n);
    const set = net.model.setFor(start + 1);
    const n = set.length;
    // Two full rotations: every active validator proposes twice in round 0 at its turn. A missed
    // turn (round > 0) does not count, so the window grows, bounded by six rotations.
    let to = start + 2 * n;
    let round0 = new Map<string, number>();
    for (;;) {
      await net.chain.waitHeight(to, names, to - start);
      round0 = await net.model.checkProposers(names, start + 1, to);
      const short = set.filter((a) => (round0.get(a) ?? 0) < 2);
      if (short.length === 0) break;
      assert.ok(
        to < start + 6 * n,
        `heights ${start + 1}..${to}: ${short.map((a) => net.model.nameOf(a)).join(', ')} did not propose twice in round 0 in six rotations`,
      );
      to += n;
    }
    assert.equal(net.model.setFor(to).length, n, `the active set changed within ${start + 1}..${to}`);
    // And the whole history since genesis, on every node.
    await net.model.checkProposers(names, 1, start);
    for (const name of names) await net.model.compareWith(name);
  },
};

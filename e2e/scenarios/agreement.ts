/**
 * 1 Agreement: every node serves the same block, with the same hash, at every height from 1 to
 * a target a few blocks ahead.
 */
import type { TestnetBase } from '@chain-devnet/devnet/testkit';
import type { Scenario } from './scenario.js';

export const agreement: Scenario<TestnetBase> = {
  id: 1,
  title: 'agreement: the same block hash at every height on every node',
  async run(net) {
    const names = net.names();
    const target = Math.max(20, (await net.synced()) + 5);
    await net.chain.assertAgreement(names, 1, target);
    // The tip as /status reports it matches the block hashes too.
    for (const n of names) {
      const { height, value } = await net.chain.consistent(n, () => net.chain.status(n));
      const other = names.find((x) => x !== n) ?? n;
      await net.chain.waitHeight(height + 1, [other]);
      const want = await net.chain.hashAt(other, height);
      if (value.last_hash !== want)
        throw new Error(`${n} at height ${height}: last_hash ${value.last_hash}, but ${other} has ${want}`);
    }
  },
};

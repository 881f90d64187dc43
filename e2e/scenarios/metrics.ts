/**
 * 10 Metrics: every node's /metrics, scraped at a known height, shows that height, the validator
 * count, and per-type transaction counts equal to what its RPC serves (the transactions of blocks
 * 1..height), plus minted and burned wei equal to the chain's history.
 */
import assert from 'node:assert/strict';
import { blockReward, type TestnetBase, Wallet } from '@chain-devnet/devnet/testkit';
// The node's own list: a copy here had lost the two upgrade types, whose counts went unchecked.
import { TX_TYPES } from '@chain-devnet/node/chain';
import type { Scenario } from './scenario.js';

export const metrics: Scenario<TestnetBase> = {
  id: 10,
  title: 'metrics: height, validator count and transaction counts of every node match its RPC',
  async run(net) {
    const { chain, txs } = net;
    await net.synced();
    // At least one transaction of this run in the counts.
    await txs.fund(txs.faucet(), [Wallet.random('metrics')], 1n, net.names()[0]!);
    for (const n of net.names()) {
      const { height: h, metrics: m } = await chain.metricsAt(n);
      const at = `${n} at height ${h}`;
      assert.equal(m.get('chain_block_height'), h, `${at}: chain_block_height`);

      const { height: hv, value: vs } = await chain.consistent(n, () => chain.validators(n));
      await net.model.syncTo(Math.max(h, hv));
      assert.equal(vs.validators.length, net.model.at(hv).size, `${n} at height ${hv}: /validators length`);
      assert.equal(m.get('chain_validator_count'), net.model.at(h).size, `${at}: chain_validator_count`);
      const active = [...net.model.at(h).values()].filter((v) => v.status === 'ACTIVE').length;
      const jailed = [...net.model.at(h).values()].filter((v) => v.status === 'JAILED').length;
      assert.equal(m.get('chain_active_validators'), active, `${at}: chain_active_validators`);
      assert.equal(m.get('chain_jailed_validators'), jailed, `${at}: chain_jailed_validators`);
      assert.equal(m.get('chain_epoch'), Math.floor(h / net.params.epochLength), `${at}: chain_epoch`);

      // Transactions by type: what this node's blocks 1..h hold.
      const counts = new Map<string, number>();
      let minted = 0n;
      for (const b of await chain.blocksOf(n, 1, h)) {
        for (const t of b.txs) counts.set(t.tx_type, (counts.get(t.tx_type) ?? 0) + 1);
        minted += blockReward(b.header.height, net.params);
      }
      const reported = m.byLabel('chain_transactions_total', 'tx_type');
      for (const type of TX_TYPES)
        assert.equal(
          reported.get(type) ?? 0,
          counts.get(type) ?? 0,
          `${at}: chain_transactions_total{tx_type="${type}"} is ${reported.get(type) ?? 'absent'}, its blocks hold ${counts.get(type) ?? 0}`,
        );
      // Gauges of wei are floats: compared with the nearest double of the exact value.
      assert.equal(m.get('chain_total_minted'), Number(minted), `${at}: chain_total_minted`);
      assert.equal(
        m.get('chain_total_burned'),
        Number(net.model.burnedAfter(h)),
        `${at}: chain_total_burned`,
      );
    }
  },
};

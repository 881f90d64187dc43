/**
 * A load on the simulation: transfers and delegations from the network's funded accounts, sent to
 * nodes that are up, through a crash and restart of one validator. Confirmed transactions are in
 * every node's chain (no fork), every account's balance and nonce agree on every node, the supply
 * is the genesis supply (nothing minted or lost beyond what the rules say), and the same seed gives
 * the same run and the same report.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimCluster } from '../../../src/sim/simCluster.js';

async function loadedRun(seed: string) {
  const cluster = await SimCluster.open({ seed, validators: 4, accounts: 4 });
  try {
    const load = cluster.load({ rate: 20, mix: { TRANSFER: 0.8, DELEGATE: 0.2 } });
    await cluster.runTo(8_000);
    await cluster.apply({ kind: 'crash', node: 'validator-2' });
    await cluster.runTo(14_000);
    await cluster.apply({ kind: 'restart', node: 'validator-2' });
    await cluster.runTo(22_000);
    load.stop();
    const settled = await cluster.runUntil(() => cluster.allAt(cluster.head), 10_000);
    const heights = cluster.heights();
    const report = await load.report(cluster.node('validator-0'));
    const accounts = cluster.names.map((n) => {
      const state = cluster.node(n).service!.state;
      return cluster.senders.map((s) => {
        const a = state.accounts.get(s.address);
        return `${a?.balance}/${a?.nonce}`;
      });
    });
    return {
      settled,
      heights,
      report,
      accounts,
      chains: await cluster.chains(),
      failures: cluster.nodeFailures(),
    };
  } finally {
    await cluster.close();
  }
}

describe('a load on the simulation', () => {
  it('confirms transactions through a crash and a restart; every node agrees on every account', async () => {
    const run = await loadedRun('load');
    assert.equal(run.settled, true);
    assert.deepEqual(run.chains.forks, []);
    assert.deepEqual(run.failures, []);
    assert.ok(run.report.sent >= 250, `sent ${run.report.sent}`);
    // Some are lost with the crashed node's mempool, or refused after a resend; the rest confirm.
    assert.ok(run.report.confirmed >= 250, JSON.stringify(run.report));
    assert.equal(run.report.failed, 0, JSON.stringify(run.report));
    for (const accounts of run.accounts) assert.deepEqual(accounts, run.accounts[0]);
    // Every sender's nonce moved: each account's transactions were confirmed, not only some.
    for (const a of run.accounts[0]!) assert.notEqual(a.split('/')[1], '0', a);
  });

  it('gives the same run and the same report for the same seed', async () => {
    const [a, b] = [await loadedRun('load-twice'), await loadedRun('load-twice')];
    assert.equal(a.chains.fingerprint, b.chains.fingerprint);
    assert.deepEqual(a.report, b.report);
    assert.deepEqual(a.accounts, b.accounts);
  });
});

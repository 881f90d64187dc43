/**
 * Skewed clocks on the simulation, through each node's own clock (its ticker's offset), as
 * `devnet clock NODE --skew` does on the other runtimes: validators 10 s ahead and 10 s behind
 * keep the chain going with every block in round 0; one 40 s ahead, past the 30 s a block's
 * timestamp may lead a validator's clock (docs/RULES.md, "Block timestamps"), has its proposals
 * refused, so its slots are missed while the others go on; no fork either way.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimCluster } from '../../../src/sim/simCluster.js';

async function runSkewed(skews: Record<string, number>, heights: number) {
  const cluster = await SimCluster.open({ seed: 'skew', validators: 4 });
  try {
    for (const [node, ms] of Object.entries(skews)) await cluster.apply({ kind: 'skew', node, ms });
    const reached = await cluster.runUntil(() => cluster.allAt(heights), heights * 20_000);
    return { reached, chains: await cluster.chains(), failures: cluster.nodeFailures() };
  } finally {
    await cluster.close();
  }
}

describe('skewed clocks on the simulation', () => {
  it('validators 10 s ahead and 10 s behind: the chain goes on, every block in round 0', async () => {
    const run = await runSkewed({ 'validator-1': 10_000, 'validator-2': -10_000 }, 12);
    assert.equal(run.reached, true);
    assert.deepEqual(run.chains.forks, []);
    assert.deepEqual(run.failures, []);
    assert.equal(run.chains.missedSlots, 0);
  });

  it('a validator 40 s ahead: its proposals are refused and its slots missed; the others go on', async () => {
    const run = await runSkewed({ 'validator-3': 40_000 }, 12);
    assert.equal(run.reached, true);
    assert.deepEqual(run.chains.forks, []);
    // Its turn comes about once in four heights: each costs a round.
    assert.ok(run.chains.missedSlots >= 2, `missed ${run.chains.missedSlots}`);
  });
});

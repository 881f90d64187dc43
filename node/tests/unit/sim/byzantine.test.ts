/**
 * A Byzantine validator on the simulation, the node's own test-only parts (faults/byzantine.ts, as
 * chain-node --byzantine equivocate): it signs two versions of every proposal and vote and sends
 * each to half its peers (the simulated port's publishSplit). The honest nodes finalize the same
 * block at every height, the chain goes on, and each of them holds proven evidence of every kind
 * against the liar and nobody else, the e2e suite's Byzantine scenario (e2e/scenarios/byzantine.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isProvenEquivocation } from '../../../src/chain/index.js';
import { SimCluster } from '../../../src/sim/simCluster.js';

describe('a Byzantine validator on the simulation', () => {
  it('equivocates; every node agrees at every height, goes on, and every honest node has the evidence', async () => {
    const cluster = await SimCluster.open({
      seed: 'byzantine',
      validators: 4,
      byzantine: { 'validator-3': 'equivocate' },
      params: { epoch_length: 1000 },
    });
    try {
      // Before it has equivocated nobody holds evidence against it: the Byzantine scenario's check says so.
      assert.deepEqual(
        cluster.evidenceProblems({ againstEveryLiar: true }).sort(),
        ['validator-0', 'validator-1', 'validator-2'].map(
          (n) => `evidence: ${n} holds no evidence against validator-3, which equivocates`,
        ),
      );
      assert.equal(await cluster.runUntil(() => cluster.allAt(16), 16 * 20_000), true);
      assert.deepEqual(cluster.evidenceProblems({ againstEveryLiar: true }), []);
      const chains = await cluster.chains();
      assert.deepEqual(chains.forks, []);
      assert.deepEqual(cluster.nodeFailures(), []);
      const liar = cluster.validatorAddress('validator-3');
      for (const n of ['validator-0', 'validator-1', 'validator-2']) {
        const evidence = cluster.node(n).service!.evidence();
        assert.ok(evidence.length > 0, `${n} has evidence`);
        for (const e of evidence) {
          assert.equal(e.validator, liar, `${n}: ${e.kind} at ${e.height}/${e.round} is the liar's`);
          assert.ok(
            isProvenEquivocation(e),
            `${n}: ${e.kind} at ${e.height}/${e.round}: both signatures check`,
          );
        }
        assert.deepEqual([...new Set(evidence.map((e) => e.kind))].sort(), [
          'precommit',
          'prevote',
          'proposal',
        ]);
      }
    } finally {
      await cluster.close();
    }
  });

  it('refuses a Byzantine name that is not a validator of the simulation', async () => {
    await assert.rejects(
      SimCluster.open({ seed: 'b', validators: 4, byzantine: { 'validator-9': 'equivocate' } }),
      /byzantine: no validator validator-9 in the simulation/,
    );
  });
});

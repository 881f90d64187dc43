/**
 * Four validators, each the node's own chain core, signer and consensus driver, on the
 * simulation's edges: the same seed twice is the same run, header hash for header hash on every
 * node; another seed is another run of the same chain rules (other timestamps, other hashes).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { simulate } from '../../../src/sim/simulate.js';

describe('simulate', () => {
  it('runs a seed twice to the same header hashes on every node, across epoch boundaries and snapshots', async () => {
    // 120 heights: epoch boundaries (and the snapshots taken at them) fall inside the run.
    const first = await simulate({ seed: 'determinism', validators: 4, heights: 120 });
    const again = await simulate({ seed: 'determinism', validators: 4, heights: 120 });
    assert.equal(first.reached, true, JSON.stringify(first.heights));
    assert.deepEqual(first.forks, []);
    assert.deepEqual(first.failures, []);
    const chains = Object.values(first.hashes);
    assert.equal(chains.length, 4);
    for (const chain of chains) assert.ok(chain.length >= 120);
    assert.deepEqual(again.hashes, first.hashes);
    assert.equal(again.fingerprint, first.fingerprint);
    assert.equal(again.events, first.events);
    assert.equal(again.virtualMs, first.virtualMs);
    // A height a second of chain time: 120 heights in about two minutes of virtual time.
    assert.ok(first.virtualMs >= 119_000 && first.virtualMs < 200_000, `${first.virtualMs}`);
    assert.equal(existsSync('/sim'), false, 'a simulated node wrote to disk');
  });

  it('runs another seed as another run of the same rules', async () => {
    const a = await simulate({ seed: 'seed-a', validators: 4, heights: 10 });
    const b = await simulate({ seed: 'seed-b', validators: 4, heights: 10 });
    assert.equal(a.reached && b.reached, true);
    assert.notEqual(a.fingerprint, b.fingerprint);
    assert.deepEqual([a.forks, b.forks], [[], []]);
  });

  it('decides on slow, lossy links, with no fork', async () => {
    // Lossy, slow links: rounds time out and retransmissions cost time; the chain still decides.
    const run = await simulate({
      seed: 'lossy',
      validators: 4,
      heights: 15,
      link: { latencyMs: 40, jitterMs: 60, loss: 0.2, retransmitMs: 200 },
    });
    assert.equal(run.reached, true, JSON.stringify(run.heights));
    assert.deepEqual(run.forks, []);
  });
});

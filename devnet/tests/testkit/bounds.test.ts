/** The testkit's bounds in blocks: room for a round past an absent proposer, whatever the block time. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundMs } from '../../src/testkit/bounds.js';

describe('bounds in blocks', () => {
  test('short blocks: each block has room for the 3 s propose timeout of an absent proposer', () => {
    // 4 blocks at 400 ms with a paused validator took 15 s here (two rounds past it): 3 block
    // times per block (13.8 s in all) was not enough.
    assert.equal(boundMs({ blocks: 4 }, { blockTimeMs: 400, nodes: 4, runtime: 'process' }), 22_600);
  });

  test('long blocks: 3 block times per block, which already covers the timeout', () => {
    assert.equal(boundMs({ blocks: 10 }, { blockTimeMs: 2000, nodes: 4, runtime: 'process' }), 69_000);
  });

  test('the runtimes of containers get half as long again; seconds stay seconds', () => {
    assert.equal(boundMs({ blocks: 1 }, { blockTimeMs: 1000, nodes: 2, runtime: 'swarm' }), 16_500);
    assert.equal(boundMs({ seconds: 7 }, { blockTimeMs: 1000, nodes: 2, runtime: 'docker' }), 7000);
  });
});

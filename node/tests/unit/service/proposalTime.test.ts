/**
 * A proposal's timestamp (docs/RULES.md, "Block timestamps"): the proposer's clock, raised to its
 * parent's when the clock is behind it, so a validator whose clock runs behind (a skewed clock,
 * issue 42) still proposes a block every validator accepts. The rule is buildBlock's (chain/block/applyBlock.ts); this pins it.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { blockHash, type Commit, signVote } from '../../../src/chain/index.js';
import { key } from '../../fixtures.js';
import { type Harness, makeHarness } from '../../support/harness.js';

describe('a proposal timestamp', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.close()));
  });

  async function commitNext(h: Harness): Promise<number> {
    const val = key('val-0');
    const { block } = h.service.buildProposal(val.privateKey, 0);
    const hash = blockHash(block.header);
    const vote = signVote(
      h.service.state.params.chainId,
      { kind: 'precommit', height: block.header.height, round: 0, blockHash: hash, validator: val.validator },
      val.privateKey,
    );
    const commit: Commit = {
      height: block.header.height,
      round: 0,
      blockHash: hash,
      signatures: [{ validator: vote.validator, signature: vote.signature }],
    };
    assert.equal(await h.service.commitSynced(block, commit), true);
    return block.header.timestamp;
  }

  it("is the proposer's clock", async () => {
    const h = await makeHarness();
    harnesses.push(h);
    assert.equal(await commitNext(h), Math.floor(h.clock.now / 1000));
  });

  it("is its parent's when the proposer's clock is behind the parent, and the block is valid", async () => {
    const h = await makeHarness();
    harnesses.push(h);
    h.clock.now += 20_000;
    const parent = await commitNext(h);
    h.clock.now -= 30_000; // 10 s behind the parent's timestamp
    const { block } = h.service.buildProposal(key('val-0').privateKey, 0);
    assert.equal(block.header.timestamp, parent);
    assert.doesNotThrow(() => h.service.validateBlock(block));
  });
});

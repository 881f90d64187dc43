/**
 * The one rule for every commit a node stores (and so serves on GET /block/{h}/commit and to
 * peers that sync): only distinct validators of the height's active set, every signature valid,
 * more than 2/3 of the set. A commit with any other entry is refused whole (BAD_COMMIT), on the
 * block sync path and on the path of the node's own consensus decisions alike.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { BlockError, blockHash, type Commit, signVote } from '../../../src/chain/index.js';
import { key } from '../../fixtures.js';
import { type Harness, makeHarness } from '../../support/harness.js';
import { withInvalidSignature, withRepeatedSigner, withUnknownSigner } from '../../support/roguePeer.js';

describe('the commit rule', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.close()));
  });

  /** The next block of a sole-validator chain and its honest commit. */
  async function nextBlock() {
    const h = await makeHarness();
    harnesses.push(h);
    const val = key('val-0');
    const built = h.service.buildProposal(val.privateKey, 0);
    const hash = blockHash(built.block.header);
    const vote = signVote(
      h.service.state.params.chainId,
      { kind: 'precommit', height: 1, round: 0, blockHash: hash, validator: val.validator },
      val.privateKey,
    );
    const commit: Commit = {
      height: 1,
      round: 0,
      blockHash: hash,
      signatures: [{ validator: vote.validator, signature: vote.signature }],
    };
    return { h, built, commit, chainId: h.service.state.params.chainId };
  }

  const badCommit = (e: unknown) => e instanceof BlockError && e.code === 'BAD_COMMIT';

  for (const [what, forge] of [
    ['a signer that is no validator', withUnknownSigner],
    ['a validator repeated', (c: Commit) => withRepeatedSigner(c, 1)],
    ['an invalid signature', (c: Commit) => withInvalidSignature(c)],
  ] as const) {
    it(`a synced commit with ${what} is refused and nothing is stored`, async () => {
      const { h, built, commit, chainId } = await nextBlock();
      await assert.rejects(h.service.commitSynced(built.block, forge(commit, chainId)), badCommit);
      assert.equal(h.service.state.height, 0);
      assert.equal((await h.request('GET', '/block/1/commit')).status, 404);
      assert.equal(await h.service.commitSynced(built.block, commit), true, 'the honest commit is taken');
      const served = (await h.request('GET', '/block/1/commit')).json() as Commit;
      assert.deepEqual(served.signatures, commit.signatures);
    });
  }

  for (const [what, forge] of [
    ['a signer that is no validator', withUnknownSigner],
    ['a validator repeated', (c: Commit) => withRepeatedSigner(c, 1)],
  ] as const) {
    it(`a decided commit with ${what} is refused too (its entries are checked, not only counted)`, async () => {
      const { h, built, commit, chainId } = await nextBlock();
      await assert.rejects(
        h.service.commitDecided(built.block, forge(commit, chainId), built.result),
        badCommit,
      );
      assert.equal((await h.request('GET', '/block/1/commit')).status, 404);
    });
  }
});

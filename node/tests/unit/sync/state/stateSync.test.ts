/**
 * State sync over real libp2p and real level stores (issue 27): a joiner with an empty store asks
 * a rogue peer for its snapshot and is served a corrupt chunk, a missing chunk, bytes beyond the
 * offer's size, a forged state whose root is not the committed header's, or a forged commit (of
 * block h+1: caught before any chunk is asked for, issue 39); each is caught before anything is
 * written, and the rogue's standing is lowered. With an honest peer joining after the
 * rogue failed, the joiner restores the honest snapshot, block-syncs the heights after it and ends
 * at the chain's height and state root, with no block below the snapshot.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { waitFor } from '@chain-devnet/kit/wait';
import { stateRoot } from '../../../../src/chain/index.js';
import { createMetrics } from '../../../../src/metrics/metrics.js';
import { BlockSync } from '../../../../src/sync/block/blockSync.js';
import { genesisOf, key } from '../../../fixtures.js';
import { type Lies, withInvalidSignature } from '../../../support/roguePeer.js';
import { stateSyncScene } from '../../../support/stateSyncScene.js';

/** Snapshots every 10 blocks (the fixtures' epoch length): the newest at 40, block 41 after it. */
const BLOCKS = 45;

const REASONS = {
  corrupt: /snapshot 40 refused: (corrupt gzip|snapshot hash|malformed snapshot)/,
  'missing-chunk': /chunk 0 of 40: peer says: no chunk 0/,
  oversized: /chunk 0 of 40: chunk 0 has \d+ bytes, not \d+/,
  'forged-state': /restored state root \w+ differs from block 40's state_root/,
} as const;

describe('state sync against a rogue snapshot peer', { timeout: 120_000 }, () => {
  const stops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  });
  const genesis = genesisOf();
  const setUp = (lies: Lies, rounds: number) =>
    stateSyncScene({ lies, blocks: BLOCKS, options: { rounds }, track: (stop) => stops.push(stop) });

  for (const lie of Object.keys(REASONS) as (keyof typeof REASONS)[])
    it(`a rogue serving a snapshot with a lie (${lie}) is caught, scored down, and nothing is written`, async () => {
      const { rogue, joiner, stateSync } = await setUp({ snapshot: lie }, 1);
      assert.equal(await stateSync.run(), null);
      assert.ok(rogue.chunkRequests.length > 0, 'the rogue was asked for chunks');
      const record = stateSync.standing.of(rogue.peerId);
      assert.ok(record !== null, 'the rogue is scored down');
      assert.match(record.lastReason, REASONS[lie]);
      assert.equal(await joiner.store.identity(), null, 'nothing written to the store');
      assert.equal(await joiner.store.height(), null);
    });

  // A forged commit of the snapshot's height is caught with the state; one of the block after it
  // (checked against the genesis alone) before any chunk is asked for.
  for (const [height, reason, chunks] of [
    [40, /commit 40: invalid precommit signature/, 'some'],
    [41, /snapshot 40 not proven: only 0 of 1 genesis validators signed block 41/, 'none'],
  ] as const)
    it(`a rogue serving a good snapshot with a forged commit of block ${height} is caught (${chunks} of its chunks asked for)`, async () => {
      const { rogue, joiner, stateSync } = await setUp(
        { snapshot: 'honest', forgeCommit: (c) => (c.height === height ? withInvalidSignature(c) : c) },
        1,
      );
      assert.equal(await stateSync.run(), null);
      assert.match(stateSync.standing.of(rogue.peerId)?.lastReason ?? '', reason);
      assert.equal(rogue.chunkRequests.length > 0, chunks === 'some');
      assert.equal(await joiner.store.identity(), null, 'nothing written to the store');
    });

  it('after a rogue fails, the joiner restores from an honest peer and follows the chain to its head', async () => {
    const { chain, rogue, joiner, network, stateSync, logger, joinHonest } = await setUp(
      { snapshot: 'forged-state' },
      60,
    );
    const running = stateSync.run();
    await waitFor('the rogue scored down', 30_000, async () =>
      stateSync.standing.of(rogue.peerId) !== null ? true : null,
    );
    const honest = await joinHonest();
    assert.equal(await running, 40);
    assert.ok(logger.lines.some((l) => l.msg === 'state sync restored' && l.peer === honest.peerId));
    await joiner.service.open(genesis);
    assert.equal(joiner.service.state.height, 40);
    const sync = new BlockSync(joiner.service, network, createMetrics(), memoryLogger());
    await waitFor('the joiner at the chain head', 30_000, async () => {
      await sync.catchUp();
      return joiner.service.state.height >= BLOCKS ? true : null;
    });
    assert.equal(stateRoot(joiner.service.state), stateRoot(chain.service.state));
    assert.equal(joiner.service.state.lastBlockHash, chain.service.state.lastBlockHash);
    for (const path of ['/status', '/validators', `/balance/${key('alice').account}`])
      assert.deepEqual(
        (await joiner.request('GET', path)).json(),
        (await chain.request('GET', path)).json(),
        path,
      );
    assert.equal((await joiner.request('GET', '/block/1')).status, 404, 'no block below the snapshot');
    assert.equal((await joiner.request('GET', '/block/41')).status, 200);
  });
});

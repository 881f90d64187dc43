/**
 * Block sync against peers that lie about their height, over real libp2p: a peer that claims
 * height 10,000,000 and then never answers a request for blocks held a cut-off validator's sync
 * for its whole request timeout, run after run. The node now moves on from a peer that fails it
 * (stalls, claims a height it cannot serve, serves a refused commit), catches up from an honest
 * one, and skips the liars in its next runs (their standing is down). The sync's clock stands
 * still here, so a backoff never ends during the test whatever the machine's speed.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { createMetrics } from '../../../../src/metrics/metrics.js';
import { BlockSync, DEFAULT_SYNC_TIMEOUTS } from '../../../../src/sync/block/blockSync.js';
import { ManualTicker } from '../../../../src/util/ticker.js';
import { type Harness, makeHarness } from '../../../support/harness.js';
import { type Lies, RoguePeer, withRepeatedSigner } from '../../../support/roguePeer.js';
import { behindNode, honestPeerJoining } from '../../../support/syncPeers.js';

const HUGE = 10_000_000;

describe('block sync with peers that lie about their height', { timeout: 120_000 }, () => {
  const stops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  });

  /**
   * A chain of `blocks` blocks, liars serving from it, and a node behind them all that syncs with
   * a clock that stands still. The honest peer joins later (`joinHonest`).
   */
  async function setUp(blocks: number, lies: readonly Lies[]) {
    const chain: Harness = await makeHarness();
    stops.push(() => chain.close());
    for (let i = 0; i < blocks; i++) await chain.produce();
    const base = await freeBasePort((b) => Array.from({ length: lies.length + 2 }, (_x, i) => b + i));
    const liars: RoguePeer[] = [];
    for (const [i, l] of lies.entries()) {
      const liar = await RoguePeer.start(chain.service, l, { name: `liar-${i}`, port: base + 2 + i });
      stops.push(() => liar.stop());
      liars.push(liar);
    }
    const behind = await behindNode({ name: 'behind', port: base, bootstrap: liars.map((l) => l.address) });
    stops.push(() => behind.stop());
    const sync = new BlockSync(
      behind.harness.service,
      behind.network,
      createMetrics(),
      memoryLogger(),
      DEFAULT_SYNC_TIMEOUTS,
      new ManualTicker({ now: 0 }),
    );
    await waitFor('the node connected to every liar', 15_000, async () => {
      const connected = behind.network.connectedPeers();
      return liars.every((l) => connected.includes(l.peerId)) ? true : null;
    });
    const joinHonest = () =>
      honestPeerJoining(chain.service, behind.network, behind.address, base + 1, (stop) => stops.push(stop));
    return { chain, liars, behind, sync, joinHonest };
  }

  it('one liar: the node moves on from it, catches up from an honest peer and skips the liar next time', async () => {
    const { chain, liars, behind, sync, joinHonest } = await setUp(3, [
      { claimHeight: HUGE, stallBlocks: true },
    ]);
    const liar = liars[0]!;
    assert.equal(await sync.catchUp(), 0, 'the liar served nothing');
    assert.equal(liar.blockRequests().length, 1, 'the liar was asked for blocks once, not once per attempt');
    assert.ok(sync.standing.of(liar.peerId) !== null, 'the liar is scored down');

    await joinHonest();
    const asked = liar.requests.length;
    assert.equal(await sync.catchUp(), 3);
    assert.equal(behind.harness.service.state.lastBlockHash, chain.service.state.lastBlockHash);
    assert.equal(liar.requests.length, asked, 'the liar was not asked anything in the next run');
  });

  it('several liars (stalling, a refused commit, a height it cannot serve): the node tries each once and catches up from the honest peer', async () => {
    const { chain, liars, behind, sync, joinHonest } = await setUp(3, [
      { claimHeight: HUGE, stallBlocks: true },
      { claimHeight: HUGE, forgeCommit: (c) => withRepeatedSigner(c) },
      { claimHeight: HUGE / 2 },
    ]);
    // The third liar serves the real blocks it has (the node keeps them) and then has none.
    await sync.catchUp();
    for (const [i, liar] of liars.entries()) {
      assert.equal(liar.blockRequests().length > 0, true, `liar ${i} was asked for blocks`);
      assert.ok(sync.standing.of(liar.peerId) !== null, `liar ${i} is scored down`);
    }
    assert.equal(behind.harness.service.state.height, 3, 'the real blocks the third liar had');

    for (let i = 0; i < 2; i++) await chain.produce();
    await joinHonest();
    const asked = liars.map((l) => l.requests.length);
    assert.equal(await sync.catchUp(), 2);
    assert.equal(behind.harness.service.state.lastBlockHash, chain.service.state.lastBlockHash);
    assert.deepEqual(
      liars.map((l) => l.requests.length),
      asked,
      'no liar was asked anything in the next run',
    );
  });
});

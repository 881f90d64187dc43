/**
 * A node that syncs from a rogue libp2p peer serving forged commits (an extra entry by a signer
 * that is no validator, a validator repeated with junk signatures, an invalid signature) stores
 * none of them: GET /block/{h}/commit never answers with one, and the node still catches up from
 * an honest peer, whose commits it serves as they were signed. The market pays every entry of
 * that answer: an unknown signer made it fail on the block at every poll, five repeats of one
 * validator gave that validator 6 of 8 payouts.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { activeValidators, type Commit, verifyVote } from '../../../../src/chain/index.js';
import { createMetrics } from '../../../../src/metrics/metrics.js';
import { BlockSync } from '../../../../src/sync/block/blockSync.js';
import { type Harness, makeHarness } from '../../../support/harness.js';
import {
  RoguePeer,
  withInvalidSignature,
  withRepeatedSigner,
  withUnknownSigner,
} from '../../../support/roguePeer.js';
import { behindNode, honestPeerJoining } from '../../../support/syncPeers.js';

const BLOCKS = 3;

interface CommitAnswer {
  height: number;
  round: number;
  block_hash: string;
  signatures: { validator: string; signature: string }[];
}

/** What GET /block/{h}/commit holds: only distinct validators of the active set, each signature valid. */
async function assertServesConformingCommit(node: Harness, height: number, honest: Commit): Promise<void> {
  const res = await node.request('GET', `/block/${height}/commit`);
  assert.equal(res.status, 200, `block ${height} has a commit`);
  const c = res.json() as CommitAnswer;
  const active = new Map(activeValidators(node.service.state).map((v) => [v.address, v.pubKey]));
  const signers = c.signatures.map((s) => s.validator);
  assert.equal(new Set(signers).size, signers.length, `block ${height}: every signer once`);
  for (const s of c.signatures) {
    const pubKey = active.get(s.validator);
    assert.ok(pubKey !== undefined, `block ${height}: ${s.validator} is an active validator`);
    const vote = {
      kind: 'precommit' as const,
      height: c.height,
      round: c.round,
      blockHash: c.block_hash,
      ...s,
    };
    assert.ok(
      verifyVote(node.service.state.params.chainId, vote, pubKey),
      `block ${height}: signature valid`,
    );
  }
  assert.deepEqual(
    c.signatures,
    honest.signatures.map(({ validator, signature }) => ({ validator, signature })),
    `block ${height}: the commit as its signers made it`,
  );
}

describe('block sync from a peer serving forged commits', { timeout: 60_000 }, () => {
  const stops: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  });

  const forgeries: [string, (c: Commit, chainId: string) => Commit][] = [
    ['an extra entry by a signer that is no validator', withUnknownSigner],
    ['the same validator repeated with junk signatures', (c) => withRepeatedSigner(c)],
    ['an invalid signature', (c) => withInvalidSignature(c)],
  ];

  for (const [what, forge] of forgeries) {
    it(`never stores a commit with ${what}, and catches up from an honest peer`, async () => {
      const chain = await makeHarness();
      stops.push(() => chain.close());
      for (let i = 0; i < BLOCKS; i++) await chain.produce();
      const chainId = chain.service.state.params.chainId;
      const base = await freeBasePort((b) => [b, b + 1, b + 2]);

      const rogue = await RoguePeer.start(
        chain.service,
        { forgeCommit: (c) => forge(c, chainId) },
        { name: 'rogue', port: base + 1 },
      );
      stops.push(() => rogue.stop());
      const behind = await behindNode({ name: 'behind', port: base, bootstrap: [rogue.address] });
      stops.push(() => behind.stop());
      const sync = new BlockSync(behind.harness.service, behind.network, createMetrics(), memoryLogger());
      await waitFor('the node connected to the rogue peer', 15_000, async () =>
        behind.network.connectedPeers().includes(rogue.peerId) ? true : null,
      );

      assert.equal(await sync.catchUp(), 0, 'nothing applied from the rogue peer');
      assert.ok(rogue.blockRequests().length > 0, 'the rogue peer was asked for blocks');
      assert.equal(behind.harness.service.state.height, 0);
      assert.equal((await behind.harness.request('GET', '/block/1/commit')).status, 404);

      await honestPeerJoining(chain.service, behind.network, behind.address, base + 2, (stop) =>
        stops.push(stop),
      );
      await waitFor(`the node caught up to height ${BLOCKS}`, 30_000, async () => {
        await sync.catchUp();
        return behind.harness.service.state.height >= BLOCKS ? true : null;
      });
      assert.equal(behind.harness.service.state.lastBlockHash, chain.service.state.lastBlockHash);
      for (let h = 1; h <= BLOCKS; h++)
        await assertServesConformingCommit(behind.harness, h, (await chain.service.commit(h))!);
    });
  }
});

/**
 * kill -9 while transactions flow: after a restart every confirmed transaction is still
 * confirmed at its height, the blocks seen before are unchanged, and the node goes on. And kill
 * -9 at the worst moments for liveness (the lock recorded, the block not stored; the proposal
 * recorded, not sent): the restarted validator decides the block it was locked on, or the block
 * it proposed, in the round it proposed it.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pause, waitFor } from '@chain-devnet/kit/wait';
import { blockFromJson, blockHash, coins } from '../../src/chain/index.js';
import { buildTx } from '../../src/client/txBuilder.js';
import { hexToBytes } from '../../src/crypto/hex.js';
import { PRIV_VALIDATOR_STATE_FILE, PROPOSAL_FILE } from '../../src/home/privValidator.js';
import {
  cleanup,
  initHome,
  type NodeProcess,
  spawnNodeProcess,
  startNodeProcess,
  waitForHeight,
} from '../support/processes.js';

after(cleanup);

describe('crash safety', () => {
  it('survives SIGKILL under load three times with nothing confirmed lost', async () => {
    const home = await initHome(['--block-time', '100ms', '--epoch-length', '20']);
    const accounts = JSON.parse(await readFile(join(home, 'accounts.json'), 'utf8')) as {
      private_key: string;
      address: string;
    }[];
    const sender = hexToBytes(accounts[0]!.private_key);
    const recipient = accounts[1]!.address;
    const chainId = 'chain-devnet-1';
    const confirmed = new Map<string, number>();
    const seenBlocks = new Map<number, string>();
    let nonce = 0;
    const peerIds = new Set<string>();
    const peerIdOf = (n: NodeProcess) =>
      /"msg":"p2p listening","peer_id":"([^"]+)"/.exec(n.program.lines().join('\n'))?.[1];

    for (let cycle = 0; cycle < 3; cycle++) {
      const node: NodeProcess = await startNodeProcess(home, ['--block-time', '100ms']);
      const start = (await node.client.status()).height;
      await waitForHeight(node, start + 2);
      const sent: string[] = [];
      // Bounded load: 25 transfers, their receipts polled, then a kill at a moment that varies by cycle.
      for (let i = 0; i < 25; i++) {
        const tx = await buildTx(node.client, {
          type: 'TRANSFER',
          privateKey: sender,
          to: recipient,
          amount: coins(1),
          nonce,
          chainId,
          timestamp: Math.floor(Date.now() / 1000),
        });
        const res = await node.client.sendTx(tx);
        assert.equal(res.status, 'received', res.error);
        sent.push(res.tx_hash);
        nonce++;
        if (i % 5 === 4) {
          for (const hash of sent) {
            const r = await node.client.receipt(hash);
            if (r.status === 'confirmed') confirmed.set(hash, r.block_height!);
          }
        }
      }
      await waitFor('the first transfers to confirm', 10_000, async () => {
        const r = await node.client.receipt(sent[0]!);
        return r.status === 'confirmed' ? r : null;
      });
      // Every transfer of the cycle seen confirmed before the kill is checked after it (the polls
      // above, right after sends, saw as few as 18 of 75 in a CI run: the count was timing's).
      for (const hash of sent) {
        const r = await node.client.receipt(hash);
        if (r.status === 'confirmed') confirmed.set(hash, r.block_height!);
      }
      const status = await node.client.status();
      for (let h = Math.max(1, status.height - 5); h <= status.height; h++) {
        const block = await node.client.block(h);
        seenBlocks.set(h, block.header.state_root);
      }
      await pause(37 * (cycle + 1));
      node.program.signal('SIGKILL');
      await node.program.exited;
      // Transactions still in the mempool at the kill are gone with it: resubmit from the chain's nonce.
      const restarted = await startNodeProcess(home, ['--block-time', '100ms']);
      await waitFor('the p2p identity in the log', 5000, async () => peerIdOf(restarted) ?? null);
      peerIds.add(peerIdOf(node)!);
      peerIds.add(peerIdOf(restarted)!);
      const bal = await restarted.client.balance(accounts[0]!.address);
      nonce = bal.nonce;
      for (const [hash, height] of confirmed) {
        const r = await restarted.client.receipt(hash);
        assert.equal(r.status, 'confirmed', `tx ${hash} confirmed before the kill`);
        assert.equal(r.block_height, height, `tx ${hash} still at height ${height}`);
      }
      for (const [height, root] of seenBlocks) {
        const block = await restarted.client.block(height);
        assert.equal(block.header.state_root, root, `block ${height} unchanged after the restart`);
      }
      const after = (await restarted.client.status()).height;
      await waitForHeight(restarted, after + 3);
      assert.deepEqual(
        await restarted.program.stop(),
        { code: 0, signal: null },
        'graceful shutdown exits 0',
      );
    }
    assert.ok(
      confirmed.size >= 20,
      `at least 20 transfers confirmed across the cycles, got ${confirmed.size}`,
    );
  });
  it('a lone validator killed after recording its lock and before storing the block decides that block when it restarts', async () => {
    // Without the locked block kept beside the priv-validator state, the restarted validator is
    // locked on a block it no longer has: it prevotes nil on every fresh block it proposes, and
    // its one-validator chain never makes another block.
    const home = await initHome(['--block-time', '100ms']);
    const armed = await spawnNodeProcess(home, ['--fault-injection', '--fail-point', 'lock-recorded']);
    assert.deepEqual(
      await armed.program.exited,
      { code: null, signal: 'SIGKILL' },
      'it killed itself at the fail point',
    );
    const state = JSON.parse(await readFile(join(home, PRIV_VALIDATOR_STATE_FILE), 'utf8')) as {
      step: string;
      lock: { height: number; block_hash: string };
    };
    assert.equal(state.step, 'precommit', 'the last thing it recorded is its precommit');
    const locked = state.lock;

    const restarted = await startNodeProcess(home, ['--block-time', '100ms']);
    await waitForHeight(restarted, locked.height + 2);
    const parsed = blockFromJson(await restarted.client.block(locked.height));
    assert.ok(parsed.ok);
    assert.equal(blockHash(parsed.block.header), locked.block_hash, 'the block it was locked on is final');
    assert.match(restarted.program.lines().join('\n'), /"locked_block_kept":true/);
  });

  it('a lone validator killed after recording its proposal and before sending it sends that proposal again when it restarts: its block is final in that round', async () => {
    // Without the proposal kept, the restarted proposer builds another block (another
    // timestamp), may not sign it (a second proposal for the round), and the round times out:
    // the first height after a start waits the start grace (15 s), then round 1 makes the block.
    const home = await initHome(['--block-time', '100ms']);
    const armed = await spawnNodeProcess(home, ['--fault-injection', '--fail-point', 'proposal-recorded']);
    assert.deepEqual(
      await armed.program.exited,
      { code: null, signal: 'SIGKILL' },
      'it killed itself at the fail point',
    );
    const state = JSON.parse(await readFile(join(home, PRIV_VALIDATOR_STATE_FILE), 'utf8')) as {
      height: number;
      round: number;
      step: string;
      block_hash: string;
    };
    assert.equal(state.step, 'propose', 'the last thing it recorded is its proposal');
    const kept = JSON.parse(await readFile(join(home, PROPOSAL_FILE), 'utf8')) as { round: number };
    assert.equal(kept.round, state.round);

    // A stop lasts: a block built a second later has another timestamp (they are in seconds).
    await pause(1100);
    const restarted = await startNodeProcess(home, ['--block-time', '100ms']);
    await waitForHeight(restarted, state.height + 1);
    const parsed = blockFromJson(await restarted.client.block(state.height));
    assert.ok(parsed.ok);
    assert.equal(blockHash(parsed.block.header), state.block_hash, 'the proposed block is final');
    assert.equal(parsed.block.header.round, state.round, 'in the round it was proposed in');
    assert.match(restarted.program.lines().join('\n'), /"proposal_kept":true/);
    assert.doesNotMatch(restarted.program.lines().join('\n'), /signature refused/);
  });
});

/** Receipts for every fate: failed at execution, expiry racing a commit, and bad addresses on every delegator route. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '@chain-devnet/kit/log';
import { blockHash, buildBlock, coins, signVote, txToJson } from '../../../src/chain/index.js';
import { key, tx } from '../../fixtures.js';
import { makeHarness, produceAsSoleValidator } from '../../support/harness.js';

describe('receipts', () => {
  it('a transaction included in a block but failing at execution reads failed with the rule message', async () => {
    const h = await makeHarness({ accounts: { alice: coins(10) } });
    try {
      const state = h.service.state;
      const bad = tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n, nonce: 5 });
      const v = key('val-0');
      const { block, result } = buildBlock(state, [bad], {
        timestamp: state.lastTimestamp + 1,
        round: 0,
        privateKey: v.privateKey,
      });
      const hash = blockHash(block.header);
      const vote = signVote(
        state.params.chainId,
        { kind: 'precommit', height: 1, round: 0, blockHash: hash, validator: v.validator },
        v.privateKey,
      );
      assert.equal(
        await h.service.commitDecided(
          block,
          { height: 1, round: 0, blockHash: hash, signatures: [vote] },
          result,
        ),
        true,
      );
      const receipt = (await h.request('GET', `/tx/${result.outcomes[0]!.txHash}/receipt`)).json() as Record<
        string,
        unknown
      >;
      assert.deepEqual(receipt, {
        tx_hash: result.outcomes[0]!.txHash,
        status: 'failed',
        block_height: 1,
        timestamp: block.header.timestamp,
        confirmations: 1,
        error: 'bad nonce: expected 0, got 5',
      });
    } finally {
      await h.close();
    }
  });

  it('refuses a synced commit without enough valid precommits', async () => {
    const h = await makeHarness({ validators: ['val-0', 'val-1'] });
    try {
      const state = h.service.state;
      const proposerLabel = ['val-0', 'val-1'].find(
        (l) => key(l).validator === [...state.validators.keys()].sort()[1 % 2],
      )!;
      const p = key(proposerLabel);
      const { block } = buildBlock(state, [], {
        timestamp: state.lastTimestamp + 1,
        round: 0,
        privateKey: p.privateKey,
      });
      const hash = blockHash(block.header);
      const one = signVote(
        state.params.chainId,
        { kind: 'precommit', height: 1, round: 0, blockHash: hash, validator: p.validator },
        p.privateKey,
      );
      await assert.rejects(
        h.service.commitSynced(block, { height: 1, round: 0, blockHash: hash, signatures: [one] }),
        /commit has 1 precommits, needs 2 of 2/,
      );
      assert.equal(h.service.state.height, 0);
    } finally {
      await h.close();
    }
  });

  it('expiry never marks a transaction expired while its block is being committed', async () => {
    const h = await makeHarness({ accounts: { alice: coins(10) } }, { ttlMs: 1000 });
    try {
      const t = txToJson(tx(h.service.state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n }));
      const { tx_hash } = (await h.request('POST', '/tx/send', t)).json() as { tx_hash: string };
      h.clock.now += 5000;
      await Promise.all([produceAsSoleValidator(h.service, key('val-0').privateKey), h.service.expire()]);
      const receipt = (await h.request('GET', `/tx/${tx_hash}/receipt`)).json() as { status: string };
      assert.equal(receipt.status, 'confirmed');
    } finally {
      await h.close();
    }
  });

  it('answers 400 for a bad address on every delegator route', async () => {
    const h = await makeHarness();
    try {
      for (const route of ['delegations', 'rewards', 'unbonding']) {
        for (const bad of ['x', key('alice').validator]) {
          const res = await h.request('GET', `/delegator/${bad}/${route}`);
          assert.equal(res.status, 400, `${route} ${bad}`);
          assert.deepEqual(res.json(), { detail: 'Invalid address: expected a coin1 Bech32 address' });
        }
      }
    } finally {
      await h.close();
    }
  });
});

describe('logs', () => {
  it('writes JSON lines, or readable lines in pretty mode, with fields as data', () => {
    const lines: string[] = [];
    const now = () => new Date('2026-11-22T00:00:00.000Z');
    createLogger({ write: (l) => lines.push(l), now })
      .child({ part: 'rpc' })
      .info('hello', { n: 1n, ok: true });
    assert.deepEqual(JSON.parse(lines[0]!), {
      time: '2026-11-22T00:00:00.000Z',
      level: 'info',
      msg: 'hello',
      part: 'rpc',
      n: '1',
      ok: true,
    });
    createLogger({ format: 'pretty', write: (l) => lines.push(l), now, level: 'warn' }).info('dropped');
    createLogger({ format: 'pretty', write: (l) => lines.push(l), now }).warn('careful', { peer: 'p1' });
    assert.equal(lines[1], '00:00:00.000 WARN  careful peer=p1');
    assert.equal(lines.length, 2, 'below the level is not written');
  });
});

/**
 * The most entries a chain's state holds at a height, from its genesis alone
 * (chain/state/entryBound.ts), the bound a joiner holds a snapshot's header to: each block makes
 * at most one new entry per transaction and two more, and a chain whose transactions each make
 * one (new recipients, a validator, delegations, unbonding entries, a plan's signature) stays
 * within it block by block.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, maxEntriesAt, stateEntries, type Tx } from '../../../../src/chain/index.js';
import { genesisState, key, TestChain, tx } from '../../../fixtures.js';

describe('the entries a state can hold at a height', () => {
  it('is twice the genesis entries and, per block, a block-full of the cheapest transactions and two more', () => {
    const g = genesisState();
    const genesisEntries = stateEntries(g).length;
    const perBlock = Math.floor(30_000_000 / 21_000) + 2;
    assert.equal(maxEntriesAt(g, 0), 2 * genesisEntries);
    assert.equal(maxEntriesAt(g, 40), 2 * genesisEntries + 40 * perBlock);
    const small = genesisState({ params: { block_gas_limit: 210_000 } });
    assert.equal(maxEntriesAt(small, 10), 2 * stateEntries(small).length + 10 * 12);
  });

  it('holds block by block on a chain whose every transaction makes a new entry', () => {
    const c = new TestChain(
      { validators: ['val-0'], accounts: { alice: coins(1_000_000), bob: coins(1_000_000) } },
      [],
      ['bob'],
    );
    const g = c.state;
    const blocks: ((i: number) => Tx[])[] = [
      (i) =>
        Array.from({ length: 5 }, (_, j) =>
          tx(c.state, 'alice', 'TRANSFER', {
            to: key(`new-${i}-${j}`).account,
            amount: 1n,
            nonce: j + (c.state.accounts.get(key('alice').account)?.nonce ?? 0),
          }),
        ),
      () => [tx(c.state, 'bob', 'STAKE', { amount: coins(200) })],
      () => [tx(c.state, 'alice', 'DELEGATE', { to: key('val-0').validator, amount: coins(10) })],
      () => [tx(c.state, 'alice', 'UNDELEGATE', { to: key('val-0').validator, amount: coins(1) })],
    ];
    let before = stateEntries(c.state).length;
    for (let i = 0; i < 12; i++) {
      const txs = blocks[i % blocks.length]!(i);
      const r = c.produce(txs);
      assert.deepEqual(
        r.outcomes.map((o) => o.error),
        txs.map(() => null),
        `block ${c.state.height}'s transactions executed`,
      );
      const now = stateEntries(c.state).length;
      assert.ok(
        now - before <= txs.length + 2,
        `block ${c.state.height}: ${now - before} new entries for ${txs.length} transactions`,
      );
      assert.ok(now <= maxEntriesAt(g, c.state.height));
      before = now;
    }
  });
});

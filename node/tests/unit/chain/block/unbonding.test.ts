/** Unbonding (block/unbonding.ts): entries pay back at completion_height, not before, in completion order. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins } from '../../../../src/chain/index.js';
import { expectedSupply, heldSupply, key, TestChain, tx } from '../../../fixtures.js';
import { acct, chainOf, valAddr } from '../../../world.js';
import { FEE } from '../execute/ruleTable.js';

describe('unbonding completion', () => {
  it('pays an UNSTAKE amount back to the operator at completion_height (1 + 4 = 5), not before', () => {
    const chain = chainOf({
      accounts: { carol: coins(1) },
      validators: { carol: { stake: coins(300), status: 'INACTIVE' } },
    });
    chain.produce([tx(chain.state, 'carol', 'UNSTAKE', { amount: coins(100) })]);
    const afterFee = coins(1) - FEE.UNSTAKE;
    for (const h of [2, 3, 4]) {
      chain.produce();
      assert.equal(chain.state.height, h);
      assert.equal(chain.balance('carol'), afterFee, `nothing returned at height ${h}`);
      assert.equal(chain.state.unbonding.length, 1);
    }
    const r = chain.produce();
    assert.equal(chain.state.height, 5);
    assert.equal(chain.balance('carol'), afterFee + coins(100));
    assert.deepEqual(chain.state.unbonding, []);
    assert.deepEqual(
      r.released.map((u) => [u.delegator, u.amount]),
      [[acct('carol'), coins(100)]],
    );
    assert.equal(chain.validator('carol')?.stake, coins(200));
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
  });

  it('pays an UNDELEGATE amount back to the delegator at completion_height', () => {
    const chain = chainOf({
      accounts: { alice: coins(1) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
      delegations: [['alice', 'carol', coins(80)]],
    });
    chain.produce([tx(chain.state, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(30) })]);
    chain.produceUntil(4);
    assert.equal(chain.balance('alice'), coins(1) - FEE.UNDELEGATE);
    chain.produce();
    assert.equal(chain.balance('alice'), coins(31) - FEE.UNDELEGATE);
    assert.equal(chain.state.delegations.get(valAddr('carol'))?.get(acct('alice'))?.amount, coins(50));
  });
});

describe('unbonding', () => {
  it('returns an UNDELEGATE exactly at completion_height (creation + 4), not a block earlier', () => {
    const chain = new TestChain({ validators: ['val-0'], accounts: { alice: coins(100) } });
    const v0 = key('val-0').validator;
    // Block 1: DELEGATE 50 coins; block 2: UNDELEGATE all of it, so alice earns nothing after block 2.
    chain.produce([tx(chain.state, 'alice', 'DELEGATE', { to: v0, amount: coins(50) })]);
    chain.produce([tx(chain.state, 'alice', 'UNDELEGATE', { to: v0, amount: coins(50) })]);
    assert.deepEqual(chain.state.unbonding, [
      {
        seq: 0,
        delegator: key('alice').account,
        validator: v0,
        amount: coins(50),
        creationHeight: 2,
        completionHeight: 6,
      },
    ]);
    const afterUndelegate = chain.balance('alice');
    for (const h of [3, 4, 5]) {
      const r = chain.produce();
      assert.equal(r.state.height, h);
      assert.deepEqual(r.released, [], `height ${h}`);
      assert.equal(chain.balance('alice'), afterUndelegate, `height ${h}`);
      assert.equal(chain.state.unbonding.length, 1);
    }
    const r6 = chain.produce();
    assert.equal(r6.released.length, 1);
    assert.equal(r6.released[0]!.amount, coins(50));
    assert.equal(chain.balance('alice'), afterUndelegate + coins(50));
    assert.deepEqual(chain.state.unbonding, []);
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
  });

  it('returns an UNSTAKE to the operator at completion_height, with that block’s reward if it proposed', () => {
    const chain = new TestChain({ validators: ['val-0', 'val-1'], accounts: { 'val-0': coins(1) } });
    // val-1 proposes even heights, val-0 odd ones. Block 3 (val-0's): UNSTAKE 950 coins; returns at 7.
    chain.produceUntil(2);
    chain.produce([tx(chain.state, 'val-0', 'UNSTAKE', { amount: coins(950) })]);
    assert.equal(chain.state.unbonding[0]!.completionHeight, 7);
    chain.produceUntil(5);
    const at5 = chain.balance('val-0');
    chain.produce(); // 6, val-1's
    assert.equal(chain.balance('val-0'), at5);
    const r7 = chain.produce(); // 7, val-0's: the 950 coins plus its 10-coin reward
    assert.equal(r7.released.length, 1);
    assert.equal(chain.balance('val-0') - at5, coins(960));
  });

  it('releases several entries in completion order, each at its own height', () => {
    const chain = new TestChain({ validators: ['val-0'], accounts: { alice: coins(100), bob: coins(100) } });
    const v0 = key('val-0').validator;
    chain.produce([
      tx(chain.state, 'alice', 'DELEGATE', { to: v0, amount: coins(30) }),
      tx(chain.state, 'bob', 'DELEGATE', { to: v0, amount: coins(30) }),
    ]);
    chain.produce([tx(chain.state, 'alice', 'UNDELEGATE', { to: v0, amount: coins(10) })]); // -> 6
    chain.produce([tx(chain.state, 'bob', 'UNDELEGATE', { to: v0, amount: coins(20) })]); // -> 7
    chain.produceUntil(5);
    assert.deepEqual(
      chain.state.unbonding.map((u) => [u.seq, u.completionHeight, u.amount]),
      [
        [0, 6, coins(10)],
        [1, 7, coins(20)],
      ],
    );
    const r6 = chain.produce();
    assert.deepEqual(
      r6.released.map((u) => [u.delegator, u.amount]),
      [[key('alice').account, coins(10)]],
    );
    const r7 = chain.produce();
    assert.deepEqual(
      r7.released.map((u) => [u.delegator, u.amount]),
      [[key('bob').account, coins(20)]],
    );
    assert.deepEqual(chain.state.unbonding, []);
  });
});

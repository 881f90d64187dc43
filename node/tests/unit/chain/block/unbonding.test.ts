/** Unbonding completion (block/unbonding.ts): entries pay back at completion_height, not before. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins } from '../../../../src/chain/index.js';
import { expectedSupply, heldSupply, tx } from '../../../fixtures.js';
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

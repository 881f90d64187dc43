/** A sequence of transactions through several blocks (block/applyBlock.ts), each block figured exactly. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins } from '../../../../src/chain/index.js';
import { tx } from '../../../fixtures.js';
import { acct, chainOf } from '../../../world.js';
import { FEE, REWARD } from '../execute/ruleTable.js';

describe('a sequence through blocks', () => {
  it('STAKE registers, a later STAKE tops up, UPDATE_VALIDATOR renames: each block figured exactly', () => {
    const chain = chainOf({ accounts: { carol: coins(1000) } });
    chain.produce([tx(chain.state, 'carol', 'STAKE', { amount: coins(150), payload: { name: 'c1' } })]);
    assert.equal(chain.balance('carol'), coins(850) - FEE.STAKE);
    chain.produce([tx(chain.state, 'carol', 'STAKE', { amount: coins(50) })]);
    assert.equal(chain.balance('carol'), coins(800) - 2n * FEE.STAKE);
    chain.produce([tx(chain.state, 'carol', 'UPDATE_VALIDATOR', { payload: { name: 'c2' } })]);
    assert.equal(chain.balance('carol'), coins(800) - 2n * FEE.STAKE - FEE.UPDATE_VALIDATOR);
    assert.equal(chain.state.accounts.get(acct('carol'))?.nonce, 3);
    const v = chain.validator('carol');
    assert.deepEqual(
      { stake: v?.stake, name: v?.name, registeredHeight: v?.registeredHeight, status: v?.status },
      { stake: coins(200), name: 'c2', registeredHeight: 1, status: 'INACTIVE' },
    );
    assert.equal(chain.balance('val-0'), 3n * REWARD + 2n * FEE.STAKE + FEE.UPDATE_VALIDATOR);
  });
});

/** The minimum fee of every transaction type (execute/executeTx.ts, minFee); the FEE figures of the rule tables. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minFee, TX_TYPES } from '../../../../src/chain/index.js';
import { build } from '../../../world.js';
import { FEE } from './ruleTable.js';

describe('minimum fee', () => {
  it('is base gas × 1000 wei for every type (the FEE figures used below)', () => {
    const params = build({}).params;
    assert.equal(params.minGasPrice, 1000n);
    assert.deepEqual(Object.fromEntries(TX_TYPES.map((t) => [t, minFee(t, params.minGasPrice)])), FEE);
  });
});

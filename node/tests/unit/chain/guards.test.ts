/** The rules that keep a chain from stopping itself, and parameter bounds that keep rules exact. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BURN_ADDRESS,
  coins,
  loadGenesis,
  TREASURY_ADDRESS,
  txFromJson,
  txToJson,
} from '../../../src/chain/index.js';
import { genesisJson, genesisState, key, TestChain, tx } from '../../fixtures.js';

describe('the chain never deactivates its last validators', () => {
  it('keeps the only validator active after it unstakes below the minimum, and blocks go on', () => {
    const chain = new TestChain({
      validators: ['val-0'],
      accounts: { 'val-0': coins(10) },
      params: { epoch_length: 5 },
    });
    chain.produce([tx(chain.state, 'val-0', 'UNSTAKE', { amount: coins(950) })]);
    chain.produceUntil(5);
    assert.equal(chain.validator('val-0')!.status, 'ACTIVE');
    assert.equal(chain.validator('val-0')!.stake, coins(50));
    chain.produceUntil(7);
    assert.equal(chain.state.height, 7);
  });

  it('deactivates the lower-staked one when two fall below the minimum together', () => {
    const chain = new TestChain({
      validators: ['val-0', 'val-1'],
      accounts: { 'val-0': coins(10), 'val-1': coins(10) },
      params: { epoch_length: 4 },
    });
    chain.produce([
      tx(chain.state, 'val-0', 'UNSTAKE', { amount: coins(950) }),
      tx(chain.state, 'val-1', 'UNSTAKE', { amount: coins(960) }),
    ]);
    chain.produceUntil(4);
    assert.equal(chain.validator('val-1')!.status, 'INACTIVE', 'val-1 has 40 coins, the least');
    assert.equal(chain.validator('val-0')!.status, 'ACTIVE', 'val-0 keeps the chain going with 50 coins');
    const events = chain.results[3]!.epochEvents;
    assert.deepEqual(
      events.filter((e) => e.kind === 'deactivated').map((e) => e.validator),
      [chain.validator('val-1')!.address],
    );
  });
});

describe('parameter bounds', () => {
  it('refuses unbonding_blocks 0, which could not pay back at completion_height', () => {
    const loaded = loadGenesis(genesisJson({ params: { unbonding_blocks: 0 } }));
    assert.equal(loaded.ok, false);
    if (!loaded.ok)
      assert.ok(loaded.problems.includes('unbonding_blocks must be >= 1'), loaded.problems.join('; '));
  });
});

describe('no balance at a reserved address', () => {
  it('refuses a genesis that funds the burn or treasury address, or rewards one', () => {
    const base = genesisJson();
    for (const address of [BURN_ADDRESS, TREASURY_ADDRESS]) {
      const funded = loadGenesis({ ...base, accounts: [...base.accounts!, { address, balance: '1' }] });
      assert.equal(funded.ok, false);
      assert.match(
        (funded as { problems: string[] }).problems.join('\n'),
        new RegExp(`address ${address} is a reserved address`),
      );
      const rewarded = loadGenesis({
        ...base,
        validators: base.validators.map((v) => ({ ...v, reward_address: address })),
      });
      assert.equal(rewarded.ok, false);
      assert.match(
        (rewarded as { problems: string[] }).problems.join('\n'),
        /reward_address must not be a reserved address/,
      );
    }
  });
});

describe('one value, one encoding', () => {
  it('refuses memos and names with a lone surrogate, which would share bytes with U+FFFD', () => {
    const base = txToJson(tx(genesisState(), 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n }));
    for (const memo of ['\uD800', 'a\uDC00b', '\uDBFF']) {
      const r = txFromJson({ ...base, payload: { memo } });
      assert.equal(r.ok, false, JSON.stringify(memo));
    }
    assert.equal(
      txFromJson({ ...base, payload: { memo: '\uFFFD 😀' } }).ok,
      true,
      'well-formed text is fine',
    );
    const stake = {
      ...txToJson(tx(genesisState(), 'alice', 'STAKE', { amount: coins(100) })),
      payload: { name: 'x\uD800' },
    };
    assert.equal(txFromJson(stake).ok, false);
  });
});

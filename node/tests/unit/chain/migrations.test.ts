/**
 * This build's migrations (chain/migrations.ts; docs/RULES.md, "Migrations of this build"):
 * 1.0.0 -> 1.1.0 makes 5% the default commission rate of a new validator, at exactly the plan's
 * height; a validator registered before keeps its rate. 1.1.0 -> 1.2.0 makes the state name its
 * genesis (its cases: block/genesisName.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  coins,
  loadGenesis,
  MIGRATIONS,
  NEWEST_PROTOCOL_VERSION,
  supportedVersions,
} from '../../../src/chain/index.js';
import { genesisJson, key, TestChain, tx } from '../../fixtures.js';

describe('the migrations of this build', () => {
  it('run protocol versions 1.0.0, 1.1.0 and 1.2.0, the newest 1.2.0', () => {
    assert.deepEqual(supportedVersions(MIGRATIONS), ['1.0.0', '1.1.0', '1.2.0']);
    assert.equal(NEWEST_PROTOCOL_VERSION, '1.2.0');
  });

  it('1.2.0: from the plan’s height on, the state names the genesis hash it was given', () => {
    const g = genesisJson({
      protocolVersion: '1.1.0',
      upgrades: [{ target_version: '1.2.0', upgrade_height: 3 }],
    });
    const loaded = loadGenesis(g);
    assert.ok(loaded.ok);
    const c = new TestChain(loaded.genesis.state, MIGRATIONS, ['val-0']);
    c.produceUntil(2);
    assert.equal(c.state.genesisHash, null, 'before the height: as in 1.1.0');
    c.produce();
    assert.equal(c.state.protocolVersion, '1.2.0');
    assert.equal(c.state.genesisHash, loaded.genesis.hash);
  });

  it('1.1.0: the default commission of a new validator is 5% from the plan’s height on', () => {
    const c = new TestChain(
      {
        accounts: { carol: coins(1000), dave: coins(1000) },
        upgrades: [{ target_version: '1.1.0', upgrade_height: 4 }],
      },
      MIGRATIONS,
    );
    c.produce([tx(c.state, 'carol', 'STAKE', { amount: coins(200) })]);
    c.produceUntil(3);
    assert.equal(c.state.params.defaultCommissionPpm, 100_000, 'before the height: as in 1.0.0');
    assert.equal(c.state.protocolVersion, '1.0.0');
    c.produce([tx(c.state, 'dave', 'STAKE', { amount: coins(200) })]);
    assert.equal(c.state.protocolVersion, '1.1.0');
    assert.equal(c.state.params.defaultCommissionPpm, 50_000);
    assert.equal(c.state.validators.get(key('carol').validator)?.commissionPpm, 100_000);
    // The migration ran at the start of block 4, before its transactions.
    assert.equal(c.state.validators.get(key('dave').validator)?.commissionPpm, 50_000);
  });
});

/** Genesis (genesis.ts): the checks a genesis file must pass (reserved addresses, upgrade plans). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BURN_ADDRESS, coins, loadGenesis, TREASURY_ADDRESS } from '../../../src/chain/index.js';
import { genesisJson } from '../../fixtures.js';

describe('genesis upgrade plans', () => {
  function problemsOf(json: unknown): string[] {
    const loaded = loadGenesis(json);
    assert.equal(loaded.ok, false, 'genesis must be refused');
    return loaded.ok ? [] : loaded.problems;
  }

  it('are loaded into the state', () => {
    const loaded = loadGenesis(
      genesisJson({
        upgrades: [
          { target_version: '1.1.0', upgrade_height: 5 },
          { target_version: '2.0.0', upgrade_height: 9 },
        ],
      }),
    );
    assert.ok(loaded.ok);
    assert.equal(loaded.genesis.state.protocolVersion, '1.0.0');
    assert.deepEqual(loaded.genesis.state.upgrades, [
      { targetVersion: '1.1.0', upgradeHeight: 5 },
      { targetVersion: '2.0.0', upgradeHeight: 9 },
    ]);
  });

  it('are refused when malformed, each problem naming its field', () => {
    const base = genesisJson({ accounts: { alice: coins(1) } });
    const cases: [unknown, string][] = [
      [{ ...base, upgrades: [{ target_version: '1.1', upgrade_height: 5 }] }, 'upgrades[0].target_version'],
      [
        {
          ...base,
          upgrades: [
            { target_version: '1.1.0', upgrade_height: 5 },
            { target_version: '1.2.0', upgrade_height: 5 },
          ],
        },
        'upgrades[1].upgrade_height',
      ],
      [
        {
          ...base,
          upgrades: [
            { target_version: '1.1.0', upgrade_height: 5 },
            { target_version: '1.1.0', upgrade_height: 6 },
          ],
        },
        'upgrades[1].target_version',
      ],
      [{ ...base, upgrades: [{ target_version: '1.1.0', upgrade_height: 0 }] }, 'upgrades[0].upgrade_height'],
      [
        { ...base, protocol_version: '2.0.0', upgrades: [{ target_version: '1.1.0', upgrade_height: 5 }] },
        'upgrades[0].target_version',
      ],
      [{ ...base, upgrades: [{ target_version: 110, upgrade_height: 5 }] }, 'upgrades[0]'],
      [{ ...base, upgrades: [{ target_version: '1.1.0', upgrade_height: '5' }] }, 'upgrades[0]'],
      [{ ...base, upgrades: [null] }, 'upgrades[0]'],
      [{ ...base, upgrades: { target_version: '1.1.0', upgrade_height: 5 } }, 'upgrades must be an array'],
      [{ ...base, protocol_version: '1.0' }, 'protocol_version'],
    ];
    for (const [json, field] of cases) {
      const problems = problemsOf(json);
      assert.ok(
        problems.some((p) => p.startsWith(field)),
        `expected a problem naming ${field}, got ${JSON.stringify(problems)}`,
      );
    }
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

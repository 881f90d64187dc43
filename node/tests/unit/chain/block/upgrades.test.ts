/** Protocol upgrades: semantic versions, plan checks, migration paths, and upgrades on a running chain. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyBlock,
  BlockError,
  checkUpgradePlans,
  type Migration,
  type MigrationRegistry,
  migrationPath,
  stateRoot,
  type UpgradePlan,
} from '../../../../src/chain/index.js';
import { genesisState, key, TestChain, tx } from '../../../fixtures.js';

function expectBlockError(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => e instanceof BlockError && e.code === code);
}

const plan = (targetVersion: string, upgradeHeight: number): UpgradePlan => ({
  targetVersion,
  upgradeHeight,
});

describe('checkUpgradePlans', () => {
  it('accepts no plans and increasing versions at increasing heights', () => {
    assert.deepEqual(checkUpgradePlans([], '1.0.0'), []);
    assert.deepEqual(checkUpgradePlans([plan('1.0.1', 1)], '1.0.0'), []);
    assert.deepEqual(
      checkUpgradePlans([plan('1.1.0', 5), plan('2.0.0', 6), plan('2.0.1', 100)], '1.0.0'),
      [],
    );
  });

  it('rejects a starting version that is not MAJOR.MINOR.PATCH', () => {
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 5)], '1.0'), [
      'protocol_version "1.0" is not MAJOR.MINOR.PATCH',
    ]);
  });

  it('rejects target versions that are not MAJOR.MINOR.PATCH', () => {
    assert.deepEqual(checkUpgradePlans([plan('1.1', 5)], '1.0.0'), [
      'upgrades[0].target_version is not MAJOR.MINOR.PATCH',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 5), plan('v2', 6)], '1.0.0'), [
      'upgrades[1].target_version is not MAJOR.MINOR.PATCH',
    ]);
  });

  it('rejects versions that do not increase', () => {
    assert.deepEqual(checkUpgradePlans([plan('1.0.0', 5)], '1.0.0'), [
      'upgrades[0].target_version 1.0.0 must be above the version before it',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('0.9.0', 5)], '1.0.0'), [
      'upgrades[0].target_version 0.9.0 must be above the version before it',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.2.0', 5), plan('1.1.0', 10)], '1.0.0'), [
      'upgrades[1].target_version 1.1.0 must be above the version before it',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.2.0', 5), plan('1.2.0', 10)], '1.0.0'), [
      'upgrades[1].target_version 1.2.0 must be above the version before it',
    ]);
    // A bad version in between: the next is compared with the last good one.
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 5), plan('x', 6), plan('1.0.5', 7)], '1.0.0'), [
      'upgrades[1].target_version is not MAJOR.MINOR.PATCH',
      'upgrades[2].target_version 1.0.5 must be above the version before it',
    ]);
  });

  it('rejects heights that are not whole numbers above the previous plan (and above 0)', () => {
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 0)], '1.0.0'), [
      'upgrades[0].upgrade_height must be a whole number above 0',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', -3)], '1.0.0'), [
      'upgrades[0].upgrade_height must be a whole number above 0',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 2.5)], '1.0.0'), [
      'upgrades[0].upgrade_height must be a whole number above 0',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', Number.NaN)], '1.0.0'), [
      'upgrades[0].upgrade_height must be a whole number above 0',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 5), plan('1.2.0', 5)], '1.0.0'), [
      'upgrades[1].upgrade_height must be a whole number above 5',
    ]);
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 5), plan('1.2.0', 4)], '1.0.0'), [
      'upgrades[1].upgrade_height must be a whole number above 5',
    ]);
  });

  it('reports every problem of every plan', () => {
    assert.deepEqual(checkUpgradePlans([plan('1.1.0', 10), plan('1.0.0', 3)], '1.0.0'), [
      'upgrades[1].target_version 1.0.0 must be above the version before it',
      'upgrades[1].upgrade_height must be a whole number above 10',
    ]);
  });
});

/** A migration that appends its name to a log and changes min_gas_price by `change`. */
function step(from: string, to: string, change: (p: bigint) => bigint, log: string[] = []): Migration {
  return {
    from,
    to,
    migrate: (d) => {
      log.push(`${from}->${to}@${d.base.height + 1}`);
      d.params = { ...d.params, minGasPrice: change(d.params.minGasPrice) };
    },
  };
}

describe('migrationPath', () => {
  const a = step('1.0.0', '1.1.0', (p) => p);
  const b = step('1.1.0', '1.2.0', (p) => p);
  const c = step('1.2.0', '2.0.0', (p) => p);
  const registry: MigrationRegistry = [c, a, b];

  it('chains the registered steps in order, whatever the registry order', () => {
    assert.deepEqual(migrationPath(registry, '1.0.0', '2.0.0'), [a, b, c]);
    assert.deepEqual(migrationPath(registry, '1.1.0', '2.0.0'), [b, c]);
    assert.deepEqual(migrationPath(registry, '1.0.0', '1.1.0'), [a]);
  });

  it('is empty from a version to itself', () => {
    assert.deepEqual(migrationPath(registry, '1.2.0', '1.2.0'), []);
    assert.deepEqual(migrationPath([], '1.0.0', '1.0.0'), []);
  });

  it('is null when a step is missing, the path passes the target, or it loops', () => {
    assert.equal(migrationPath([], '1.0.0', '1.1.0'), null);
    assert.equal(migrationPath([a, c], '1.0.0', '2.0.0'), null);
    assert.equal(migrationPath(registry, '1.0.0', '1.1.5'), null);
    assert.equal(migrationPath(registry, '2.0.0', '1.0.0'), null);
    const loop = [step('1.0.0', '1.1.0', (p) => p), step('1.1.0', '1.0.0', (p) => p)];
    assert.equal(migrationPath(loop, '1.0.0', '2.0.0'), null);
  });
});

describe('upgrades on a running chain', () => {
  const upgradeAt5 = { upgrades: [{ target_version: '1.1.0', upgrade_height: 5 }] };

  it('apply at the start of the block at upgrade_height, not before', () => {
    const log: string[] = [];
    const chain = new TestChain(upgradeAt5, [step('1.0.0', '1.1.0', () => 2000n, log)]);
    chain.produceUntil(4);
    assert.equal(chain.state.protocolVersion, '1.0.0');
    assert.equal(chain.state.params.minGasPrice, 1000n);
    assert.ok(chain.results.every((r) => r.upgradedTo === null));
    assert.deepEqual(log, []);

    // Block 5's transactions already run under the new parameters.
    const oldFee = 21_000n * 1000n;
    const newFee = 21_000n * 2000n;
    const to = key('bob').account;
    const r5 = chain.produce([
      tx(chain.state, 'alice', 'TRANSFER', { to, amount: 1n, fee: oldFee }),
      tx(chain.state, 'alice', 'TRANSFER', { to, amount: 1n, fee: newFee }),
    ]);
    assert.equal(r5.upgradedTo, '1.1.0');
    assert.equal(chain.state.protocolVersion, '1.1.0');
    assert.equal(chain.state.params.minGasPrice, 2000n);
    assert.equal(r5.outcomes[0]!.error?.code, 'FEE_TOO_LOW');
    assert.equal(r5.outcomes[1]!.error, null);
    assert.equal(r5.fees, newFee);
    // Applied once by the proposer (buildBlock) and once by the check (applyBlock), both at 5.
    assert.deepEqual(log, ['1.0.0->1.1.0@5', '1.0.0->1.1.0@5']);

    chain.produceUntil(8);
    assert.ok(chain.results.slice(5).every((r) => r.upgradedTo === null));
    assert.equal(chain.state.protocolVersion, '1.1.0');
    assert.equal(chain.state.params.minGasPrice, 2000n);
    assert.equal(log.length, 2);
    assert.deepEqual(chain.state.upgrades, [plan('1.1.0', 5)]);
  });

  it('stop a node without the migration at upgrade_height with UPGRADE_UNSUPPORTED', () => {
    const chain = new TestChain(upgradeAt5);
    chain.produceUntil(4);
    assert.equal(chain.state.height, 4);
    expectBlockError(() => chain.produce(), 'UPGRADE_UNSUPPORTED');
    assert.equal(chain.state.height, 4);

    // A block made by an upgraded node is refused, not applied under the old rules.
    const upgraded = new TestChain(upgradeAt5, [step('1.0.0', '1.1.0', () => 2000n)]);
    upgraded.produceUntil(5);
    const block5 = upgraded.blocks[4]!;
    expectBlockError(() => applyBlock(chain.state, block5), 'UPGRADE_UNSUPPORTED');
    assert.equal(
      applyBlock(chain.state, block5, { migrations: [step('1.0.0', '1.1.0', () => 2000n)] }).upgradedTo,
      '1.1.0',
    );
    // A registry that reaches another version is no help either.
    expectBlockError(
      () => applyBlock(chain.state, block5, { migrations: [step('1.0.0', '1.0.1', (p) => p)] }),
      'UPGRADE_UNSUPPORTED',
    );
  });

  it('run a multi-step path in order, and plans one after another', () => {
    const log: string[] = [];
    const registry = [
      step('1.1.0', '2.0.0', (p) => p + 500n, log),
      step('1.0.0', '1.1.0', (p) => p * 2n, log),
    ];
    // 1.0.0 -> 2.0.0 in one plan: (1000 * 2) + 500, not (1000 + 500) * 2.
    const direct = new TestChain({ upgrades: [{ target_version: '2.0.0', upgrade_height: 3 }] }, registry);
    direct.produceUntil(2);
    assert.equal(direct.state.params.minGasPrice, 1000n);
    direct.produce();
    assert.equal(direct.results[2]!.upgradedTo, '2.0.0');
    assert.equal(direct.state.protocolVersion, '2.0.0');
    assert.equal(direct.state.params.minGasPrice, 2500n);
    assert.deepEqual(log.slice(0, 2), ['1.0.0->1.1.0@3', '1.1.0->2.0.0@3']);

    const stepwise = new TestChain(
      {
        upgrades: [
          { target_version: '1.1.0', upgrade_height: 2 },
          { target_version: '2.0.0', upgrade_height: 4 },
        ],
      },
      registry,
    );
    stepwise.produceUntil(5);
    assert.deepEqual(
      stepwise.results.map((r) => r.upgradedTo),
      [null, '1.1.0', null, '2.0.0', null],
    );
    assert.deepEqual(
      stepwise.results.map((r) => r.state.params.minGasPrice),
      [1000n, 2000n, 2000n, 2500n, 2500n],
    );
  });

  it('are part of the state root (the plans and the protocol version)', () => {
    const plain = genesisState();
    const planned = genesisState(upgradeAt5);
    assert.notEqual(stateRoot(planned), stateRoot(plain));
    assert.equal(stateRoot(genesisState(upgradeAt5)), stateRoot(planned));
  });
});

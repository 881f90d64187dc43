/**
 * Upgrade plans agreed by validators (extension; chain/execute/upgradePlan.ts, upgradeCancel.ts,
 * upgradeSignals.ts): a plan is scheduled once more than 2/3 of the active validators signed it,
 * a scheduled one is cancelled once more than 1/3 signed its cancel, a plan signed too late or
 * not above the protocol version is refused, signatures expire at the plan's height, and only the
 * active set counts (a validator jailed meanwhile no longer does).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ChainState,
  coins,
  MIN_UPGRADE_DELAY,
  stateEntries,
  stateFromEntries,
  stateRoot,
  type TxType,
} from '../../../../src/chain/index.js';
import { key, TestChain, tx } from '../../../fixtures.js';
import { carolInactive, failureTable } from './failureTable.js';

const VALIDATORS = ['val-0', 'val-1', 'val-2', 'val-3'];

function chain(): TestChain {
  return new TestChain({
    validators: VALIDATORS,
    accounts: Object.fromEntries(VALIDATORS.map((v) => [v, coins(10)])),
  });
}

/** One block with each named validator's transaction of `type` for the plan, in order; their error codes. */
function sign(
  c: TestChain,
  type: TxType,
  signers: readonly string[],
  targetVersion: string,
  upgradeHeight: number,
) {
  const r = c.produce(
    signers.map((s) => tx(c.state, s, type, { payload: { targetVersion, upgradeHeight } })),
  );
  return r.outcomes.map((o) => o.error?.code ?? null);
}

const signers = (s: ChainState) => [...s.upgradeSignals.keys()].sort();

describe('UPGRADE_PLAN', () => {
  it('is scheduled once more than 2/3 of the active validators signed the same plan, and the signatures are dropped', () => {
    const c = chain();
    const H = 40;
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-0', 'val-1'], '1.1.0', H), [null, null]);
    assert.deepEqual(c.state.upgrades, [], '2 of 4 is not more than 2/3');
    assert.deepEqual(signers(c.state), [key('val-0').validator, key('val-1').validator].sort());
    // Another plan does not add up with this one.
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-2'], '1.1.0', H + 1), [null]);
    assert.deepEqual(c.state.upgrades, []);
    // val-2 changes its mind to the first plan: its signature is replaced, and 3 of 4 schedule it.
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-2'], '1.1.0', H), [null]);
    assert.deepEqual(c.state.upgrades, [{ targetVersion: '1.1.0', upgradeHeight: H }]);
    assert.deepEqual(signers(c.state), []);
  });

  it('is refused below the minimum distance, not above the protocol version, while one is scheduled, and from no active validator', () => {
    const c = chain();
    const next = c.state.height + 1;
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-0'], '1.1.0', next + MIN_UPGRADE_DELAY - 1), [
      'INVALID_UPGRADE',
    ]);
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-0'], '1.0.0', 100), ['INVALID_UPGRADE']);
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-0'], '0.9.0', 100), ['INVALID_UPGRADE']);
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-0', 'val-1', 'val-2'], '1.1.0', 100), [null, null, null]);
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-3'], '1.2.0', 200), ['UPGRADE_PENDING']);
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-3'], '1.1.0', 100), ['UPGRADE_PENDING']);
    // Nothing failed changed anything: no fee, no nonce, no signature.
    assert.deepEqual(signers(c.state), []);
  });

  it('a key that operates no validator is refused UNKNOWN_VALIDATOR; a jailed validator NOT_ACTIVE_VALIDATOR', () => {
    const c = new TestChain({ validators: VALIDATORS, accounts: { alice: coins(10), 'val-3': coins(10) } });
    const v3 = c.state.validators.get(key('val-3').validator)!;
    c.state = {
      ...c.state,
      validators: new Map([...c.state.validators, [v3.address, { ...v3, status: 'JAILED' }]]),
    };
    const r = c.produce([
      tx(c.state, 'alice', 'UPGRADE_PLAN', { payload: { targetVersion: '1.1.0', upgradeHeight: 100 } }),
      tx(c.state, 'val-3', 'UPGRADE_PLAN', { payload: { targetVersion: '1.1.0', upgradeHeight: 100 } }),
    ]);
    assert.deepEqual(
      r.outcomes.map((o) => o.error?.code),
      ['UNKNOWN_VALIDATOR', 'NOT_ACTIVE_VALIDATOR'],
    );
  });

  it('a plan not scheduled by its height expires: the signatures are dropped at that height', () => {
    const c = chain();
    const H = c.state.height + 1 + MIN_UPGRADE_DELAY;
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-0', 'val-1'], '1.1.0', H), [null, null]);
    c.produceUntil(H - 1);
    assert.equal(c.state.upgradeSignals.size, 2);
    c.produce();
    assert.equal(c.state.upgradeSignals.size, 0);
    assert.deepEqual(c.state.upgrades, []);
    assert.equal(c.state.protocolVersion, '1.0.0');
  });

  it('only the active set counts: a validator jailed after signing no longer does, and the quorum is of those active', () => {
    const c = chain();
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-0', 'val-1'], '1.1.0', 100), [null, null]);
    const v1 = c.state.validators.get(key('val-1').validator)!;
    c.state = {
      ...c.state,
      validators: new Map([...c.state.validators, [v1.address, { ...v1, status: 'JAILED' }]]),
    };
    // val-0 and val-2 of the 3 active: 2 of 3 is not more than 2/3 (val-1's signature does not count).
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-2'], '1.1.0', 100), [null]);
    assert.deepEqual(c.state.upgrades, []);
    assert.deepEqual(sign(c, 'UPGRADE_PLAN', ['val-3'], '1.1.0', 100), [null]);
    assert.deepEqual(c.state.upgrades, [{ targetVersion: '1.1.0', upgradeHeight: 100 }]);
  });

  it('the signatures are state entries (s/<validator>): in the root, a snapshot and a store read them back, and without them the root is as before the extension', () => {
    const c = chain();
    const before = stateRoot(c.state);
    assert.ok(!stateEntries(c.state).some((e) => e.key.startsWith('s/')));
    sign(c, 'UPGRADE_PLAN', ['val-0'], '1.1.0', 100);
    const entries = stateEntries(c.state);
    assert.deepEqual(
      entries.filter((e) => e.key.startsWith('s/')).map((e) => e.key),
      [`s/${key('val-0').validator}`],
    );
    const back = stateFromEntries(entries, {
      height: c.state.height,
      lastBlockHash: c.state.lastBlockHash,
      lastTimestamp: c.state.lastTimestamp,
    });
    assert.deepEqual(back.upgradeSignals, c.state.upgradeSignals);
    assert.equal(stateRoot(back), stateRoot(c.state));
    assert.notEqual(before, stateRoot(c.state));
  });
});

describe('UPGRADE_CANCEL', () => {
  it('withdraws the sender’s own signature of a plan not yet scheduled', () => {
    const c = chain();
    sign(c, 'UPGRADE_PLAN', ['val-0', 'val-1'], '1.1.0', 100);
    assert.deepEqual(sign(c, 'UPGRADE_CANCEL', ['val-1'], '1.1.0', 100), [null]);
    assert.deepEqual(signers(c.state), [key('val-0').validator]);
    // With val-1's signature gone, val-2's is not enough.
    sign(c, 'UPGRADE_PLAN', ['val-2'], '1.1.0', 100);
    assert.deepEqual(c.state.upgrades, []);
  });

  it('cancels a scheduled plan once more than 1/3 of the active validators signed the cancel; the chain then passes the height unchanged', () => {
    const c = chain();
    const H = 30;
    sign(c, 'UPGRADE_PLAN', ['val-0', 'val-1', 'val-2'], '1.1.0', H);
    assert.equal(c.state.upgrades.length, 1);
    assert.deepEqual(sign(c, 'UPGRADE_CANCEL', ['val-3'], '1.1.0', H), [null]);
    assert.equal(c.state.upgrades.length, 1, '1 of 4 is not more than 1/3');
    assert.deepEqual(sign(c, 'UPGRADE_CANCEL', ['val-0'], '1.1.0', H), [null]);
    assert.deepEqual(c.state.upgrades, []);
    assert.deepEqual(signers(c.state), []);
    // A cancel of a plan neither scheduled nor signed.
    assert.deepEqual(sign(c, 'UPGRADE_CANCEL', ['val-1'], '1.1.0', H), ['NO_UPGRADE']);
    c.produceUntil(H + 1);
    assert.equal(c.state.protocolVersion, '1.0.0');
  });
});

const plan = (targetVersion: string, upgradeHeight: number) => ({
  payload: { targetVersion, upgradeHeight },
});
// val-0 (the proposer) has no coin: a rule's failure comes before the balance check.
const val0 = {};

failureTable('UPGRADE_PLAN and UPGRADE_CANCEL failures', [
  {
    code: 'NOT_ACTIVE_VALIDATOR',
    name: 'carol INACTIVE -> UPGRADE_PLAN',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPGRADE_PLAN', plan('1.1.0', 100)),
    message: 'is INACTIVE: only active validators sign plans',
  },
  {
    code: 'INVALID_UPGRADE',
    name: 'val-0 at height 1 -> UPGRADE_PLAN for height 10 (less than 10 blocks ahead)',
    before: val0,
    sender: 'val-0',
    tx: (s) => tx(s, 'val-0', 'UPGRADE_PLAN', plan('1.1.0', 10)),
    message: 'upgrade_height 10 must be at least 11',
  },
  {
    code: 'INVALID_UPGRADE',
    name: 'protocol 1.0.0 -> UPGRADE_PLAN to 1.0.0',
    before: val0,
    sender: 'val-0',
    tx: (s) => tx(s, 'val-0', 'UPGRADE_PLAN', plan('1.0.0', 100)),
    message: 'target_version 1.0.0 must be above the protocol version 1.0.0',
  },
  {
    code: 'UPGRADE_PENDING',
    name: '1.1.0 scheduled at 50 -> UPGRADE_PLAN 1.2.0 at 100',
    before: { ...val0, upgrades: [{ targetVersion: '1.1.0', upgradeHeight: 50 }] },
    sender: 'val-0',
    tx: (s) => tx(s, 'val-0', 'UPGRADE_PLAN', plan('1.2.0', 100)),
    message: 'the plan 1.1.0 at height 50 is scheduled: cancel it first',
  },
  {
    code: 'NO_UPGRADE',
    name: 'nothing scheduled or signed -> UPGRADE_CANCEL 1.1.0 at 100',
    before: val0,
    sender: 'val-0',
    tx: (s) => tx(s, 'val-0', 'UPGRADE_CANCEL', plan('1.1.0', 100)),
    message: 'no plan 1.1.0 at height 100 is scheduled or signed by',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'val-0 -> UPGRADE_PLAN with amount 1',
    before: val0,
    sender: 'val-0',
    tx: (s) => tx(s, 'val-0', 'UPGRADE_PLAN', { ...plan('1.1.0', 100), amount: 1n }),
    message: 'amount must be 0 for UPGRADE_PLAN',
  },
]);

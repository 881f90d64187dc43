/**
 * GET /upgrades (extension; rpc/upgradesView.ts): the node's and the chain's versions, the plans
 * signed and scheduled with their signers, the plans applied, and the parameters in force, from
 * states of a chain of two validators: a plan signed by one is pending (1 of 2 is not more than
 * 2/3), by both scheduled (its cancel then needs 1); applied once its height is reached.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, type Migration, type TxType } from '../../../src/chain/index.js';
import { upgradesView } from '../../../src/rpc/upgradesView.js';
import { key, TestChain, tx } from '../../fixtures.js';

const toMinor: Migration = { from: '1.0.0', to: '1.1.0', migrate: () => undefined };
const versions = { node: '0.2.0', supported: ['1.0.0', '1.1.0'] };

describe('GET /upgrades, the view', () => {
  it('versions, a plan pending then scheduled then applied, the parameters', () => {
    const c = new TestChain(
      { validators: ['val-0', 'val-1'], accounts: { 'val-0': coins(10), 'val-1': coins(10) } },
      [toMinor],
    );
    const sign = (who: string, type: TxType) =>
      c.produce([tx(c.state, who, type, { payload: { targetVersion: '1.1.0', upgradeHeight: 20 } })]);
    let u = upgradesView(c.state, versions);
    assert.deepEqual(
      [u.node_version, u.protocol_version, u.supported_protocol_versions, u.p2p_version, u.min_upgrade_delay],
      ['0.2.0', '1.0.0', ['1.0.0', '1.1.0'], '1.0.0', 10],
    );
    assert.deepEqual([u.pending, u.applied], [[], []]);
    assert.equal(u.params.default_commission_rate, 0.1);

    sign('val-0', 'UPGRADE_PLAN');
    u = upgradesView(c.state, versions);
    assert.deepEqual(u.pending, [
      {
        target_version: '1.1.0',
        upgrade_height: 20,
        scheduled: false,
        signers: [key('val-0').validator],
        needed: 2,
        active_validators: 2,
        supported: true,
      },
    ]);
    sign('val-1', 'UPGRADE_PLAN');
    u = upgradesView(c.state, versions);
    assert.deepEqual(
      u.pending.map((p) => [p.scheduled, p.signers, p.needed]),
      [[true, [], 1]],
    );
    assert.equal(upgradesView(c.state, { node: '0.1.0', supported: ['1.0.0'] }).pending[0]?.supported, false);
    c.produceUntil(20);
    u = upgradesView(c.state, versions);
    assert.deepEqual(
      [u.protocol_version, u.pending, u.applied],
      ['1.1.0', [], [{ target_version: '1.1.0', upgrade_height: 20 }]],
    );
  });
});

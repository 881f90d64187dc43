/** The auto-upgrade supervisor's reading of GET /upgrades: the scheduled plans, and which one a halted node stopped for. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planHaltedFor, plansIn } from '../../src/supervisor/plans.js';

test('the plans of an answer: scheduled and applied ones, not those still collecting signatures, each once', () => {
  const answer = {
    node_version: '1.0.0',
    protocol_version: '1.0.0',
    pending: [
      { target_version: '1.1.0', upgrade_height: 40, scheduled: true, signers: [] },
      { target_version: '1.2.0', upgrade_height: 90, scheduled: false, signers: ['a'] },
    ],
    applied: [{ target_version: '1.0.1', upgrade_height: 10 }],
    again: [{ target_version: '1.1.0', upgrade_height: 40 }],
  };
  assert.deepEqual(plansIn(answer), [
    { target_version: '1.1.0', upgrade_height: 40 },
    { target_version: '1.0.1', upgrade_height: 10 },
  ]);
  assert.deepEqual(plansIn('not json'), []);
  assert.deepEqual(plansIn({ pending: [{ target_version: 1, upgrade_height: '40' }] }), []);
});

test('a node last seen at height h halted for the first plan above h', () => {
  const plans = [
    { target_version: '1.2.0', upgrade_height: 90 },
    { target_version: '1.1.0', upgrade_height: 40 },
    { target_version: '1.0.1', upgrade_height: 10 },
  ];
  assert.equal(planHaltedFor(plans, 39)?.target_version, '1.1.0');
  assert.equal(planHaltedFor(plans, 40)?.target_version, '1.2.0');
  assert.equal(planHaltedFor(plans, 0)?.target_version, '1.0.1');
  assert.equal(planHaltedFor(plans, 90), null);
});

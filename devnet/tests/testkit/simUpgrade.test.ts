/**
 * Upgrades on the simulation (SimTestnet): a chain made at protocol 1.1.0, a plan to 1.2.0
 * signed by the validators through the devnet's own path (operations/upgradePlan.ts) and applied
 * at its height on every node, GET /upgrades saying so; a plan to a version this build has no
 * migration for halts every validator at its height (chain-node's line, exit code 3, the chain
 * standing), an upgrade to this checkout halts it again, and another build is refused, saying
 * the simulation runs this checkout's code only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { SimTestnet } from '../../src/testkit/index.js';

const MANIFEST = { validators: 4, block_time: '500ms', epoch_length: 10_000, protocol_version: '1.1.0' };

describe('upgrades on the simulation', () => {
  it('a plan to 1.2.0 signed by the validators, applied at its height on every node', async () => {
    const net = await SimTestnet.start({ manifest: MANIFEST, seed: 'upgrade', log: () => undefined });
    try {
      await net.waitBlocks(2);
      assert.equal((await net.node('validator-0').rpc.upgrades()).protocol_version, '1.1.0');
      const plan = await net.upgradePlan({ version: '1.2.0', height: 20 });
      assert.equal(plan.done, true, JSON.stringify(plan));
      assert.ok(plan.signed_by.length >= 3, `signed by ${plan.signed_by.join(', ')}`);
      await net.chain.waitHeight(21);
      for (const n of net.names()) {
        const u = await net.node(n).rpc.upgrades();
        assert.equal(u.protocol_version, '1.2.0', `${n} at ${u.height}`);
      }
    } finally {
      await net.stop();
    }
  });

  it('a plan no build has halts every validator at its height, exit 3, again after an upgrade to this checkout; another build refused', async () => {
    const net = await SimTestnet.start({ manifest: MANIFEST, seed: 'halt', log: () => undefined });
    try {
      await net.waitBlocks(2);
      const stuck = await net.upgradePlan({ version: '9.0.0', height: 25 });
      assert.equal(stuck.done, true);
      await net.expect.log({ contains: 'UPGRADE NEEDED: plan 9.0.0 at height 25', within: { blocks: 30 } });
      await waitFor('every validator exited with 3', net.within(10), async () => {
        const codes = await Promise.all(net.names().map((n) => net.node(n).exitCode()));
        return codes.every((c) => c === 3) ? codes : null;
      });
      const chains = await net.cluster.chains();
      assert.deepEqual(Object.values(chains.heights), [24, 24, 24, 24], 'each stopped below the plan');
      assert.deepEqual(chains.forks, []);

      await net.node('validator-0').upgrade('checkout');
      await waitFor('validator-0 halted again', net.within(5), async () =>
        (await net.node('validator-0').exitCode()) === 3 ? true : null,
      );
      await assert.rejects(
        net.node('validator-1').upgrade('git:v0.1.0'),
        /devnet upgrade validator-1 --to git:v0.1.0 is not simulated \(the simulation runs this checkout's code only\)/,
      );
      await assert.rejects(net.add({ version: 'git:v0.1.0' }), /add --version git:v0.1.0 is not simulated/);
    } finally {
      // Every validator is down (halted): the invariants need a node that answers; the chains were
      // read from the simulated disks above instead.
      await net.stop({ invariants: false });
    }
  });
});

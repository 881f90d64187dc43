/**
 * An upgrade rehearsed with two real builds (issue 28): validators on the build before the
 * migration (OLDER_COMMIT, built into the build cache: node version 0.1.0, protocol 1.0.0 only) and on this one (0.2.0, which
 * migrates 1.0.0 -> 1.1.0) run one chain together; a plan to 1.1.0 is scheduled by their
 * transactions; at its height the old ones halt with exit code 3 while the new ones wait at the
 * height before (2 of 4 are no quorum), never forking; restarted on this build they apply the
 * migration at that height and the chain goes on; the old build refuses the upgraded store.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { UPGRADE_HALT_EXIT_CODE, VERSION_REFUSED_EXIT_CODE } from '../../src/chain/index.js';
import { buildTx } from '../../src/client/txBuilder.js';
import { readKeyFile } from '../../src/home/keyFile.js';
import { Cluster } from '../support/cluster.js';
import { type OlderBuild, olderBuild } from '../support/olderBuild.js';

describe('an upgrade with two real builds: 2 validators on the old one, 2 on this one', () => {
  let old: OlderBuild;
  let c: Cluster;
  before(async () => {
    old = await olderBuild();
    // Protocol 1.0.0 explicitly: the old build runs nothing newer (this build's default is its newest).
    c = await Cluster.create(4, 400, {}, undefined, '1.0.0');
  });
  after(async () => {
    await c?.stopAll();
  });

  it('run one chain, the old ones halt at the plan, restarted on this build they apply it and the chain goes on', async () => {
    for (const i of [0, 1]) c.start(i);
    for (const i of [2, 3]) c.start(i, old.chainNode);
    await c.waitForHeight(3);
    const versions = await Promise.all(c.nodes.map(async (n) => (await n.client.upgrades()).node_version));
    assert.deepEqual(versions, ['0.2.0', '0.2.0', '0.1.0', '0.1.0']);

    const H = (await c.height(0)) + 25;
    for (const i of [0, 1, 2]) {
      const tx = await buildTx(c.nodes[0]!.client, {
        type: 'UPGRADE_PLAN',
        privateKey: await readKeyFile(join(c.nodes[i]!.home, 'validator_key.json')),
        payload: { targetVersion: '1.1.0', upgradeHeight: H },
        chainId: 'chain-devnet-1',
        timestamp: Math.floor(Date.now() / 1000),
      });
      const sent = await c.nodes[0]!.client.sendTx(tx);
      assert.equal(sent.status, 'received', sent.error);
      await waitFor(`the plan of ${c.nodes[i]!.name} confirmed`, 20_000, async () =>
        (await c.nodes[0]!.client.receipt(sent.tx_hash).catch(() => null))?.status === 'confirmed'
          ? true
          : null,
      );
    }
    // Node 0 confirmed the third signature; the old node 3 may still be a block behind it.
    const seenByOld = await waitFor('node 3 (old build) to see the plan scheduled', 20_000, async () => {
      const u = await c.nodes[3]!.client.upgrades();
      return u.pending.some((p) => p.scheduled) ? u : null;
    });
    assert.deepEqual(
      seenByOld.pending.map((p) => [p.target_version, p.upgrade_height, p.scheduled, p.supported]),
      [['1.1.0', H, true, false]],
    );

    for (const i of [2, 3]) {
      const exit = await waitFor(`${c.nodes[i]!.name} (old build) to halt`, 90_000, async () =>
        c.nodes[i]!.program!.running ? null : c.nodes[i]!.program!.exited,
      );
      assert.equal(exit.code, UPGRADE_HALT_EXIT_CODE, c.diagnose(i));
    }
    // The new ones cannot decide H without the old ones: they wait at H - 1, in agreement.
    await c.waitForHeight(H - 1, [0, 1]);
    for (const i of [0, 1]) assert.equal(await c.height(i), H - 1);
    await c.assertAgreement(H - 1, [0, 1]);

    for (const i of [2, 3]) c.start(i);
    await c.waitForHeight(H + 3);
    for (const n of c.nodes) {
      const u = await n.client.upgrades();
      assert.equal(u.node_version, '0.2.0', n.name);
      assert.equal(u.protocol_version, '1.1.0', n.name);
      assert.deepEqual(u.applied, [{ target_version: '1.1.0', upgrade_height: H }], n.name);
      assert.equal(u.params.default_commission_rate, 0.05, n.name);
    }
    await c.assertAgreement(H + 3);

    // The old build on a store past the upgrade: a downgrade, refused.
    await c.stop(3);
    const r = await runProgram({
      args: [old.chainNode, 'start', '--home', c.nodes[3]!.home, '--port', '0', '--no-p2p'],
      timeoutMs: 30_000,
    });
    assert.equal(r.code, VERSION_REFUSED_EXIT_CODE, r.stderr);
    assert.match(r.stderr, /a downgrade past the upgrade to 1\.1\.0 applied at height \d+ is refused/);
  });
});

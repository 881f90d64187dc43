/**
 * One-way partitions on real processes and real libp2p (process runtime): a validator that cannot
 * send (every other node deaf to it) has its proposals missed and its uptime fall, while it keeps
 * up (it still receives); one that cannot receive falls behind while the others go on; each is
 * healed (devnet partition --heal) and the node is back in step. A partition shape (ring) through
 * the CLI and its heal. The whole-history invariants hold (withTestnet).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devnetCli } from '../../src/harness/cli.js';
import { withTestnet } from '../../src/testkit/index.js';

const NAMES = ['validator-0', 'validator-1', 'validator-2', 'validator-3'];

test('one-way partitions in each direction and their heal, a ring', { timeout: 400_000 }, () =>
  withTestnet(
    {
      manifest: {
        validators: 4,
        block_time: '300ms',
        epoch_length: 1000,
        seed: 'net-one-way',
        monitoring: false,
      },
      runtime: 'process',
      name: 'net-one-way',
    },
    async (net) => {
      const home = net.home;
      const v0 = net.node('validator-0').rpc;
      const of = async (name: string) => (await v0.validators()).validators.find((v) => v.name === name)!;
      await net.waitBlocks(3);

      // validator-1 cannot send: its messages reach nobody.
      const before = await of('validator-1');
      for (const to of NAMES.filter((n) => n !== 'validator-1'))
        await net.conditions.oneWay('validator-1', to);
      const others = NAMES.filter((n) => n !== 'validator-1');
      await net.waitBlocks(12, others);
      const mute = await of('validator-1');
      net.log(
        `validator-1 mute: missed ${before.missed_slots} -> ${mute.missed_slots}, uptime ${before.uptime} -> ${mute.uptime}`,
      );
      assert.ok(
        mute.missed_slots >= before.missed_slots + 2,
        `missed slots ${before.missed_slots} -> ${mute.missed_slots}`,
      );
      assert.ok(mute.uptime < before.uptime, `uptime ${before.uptime} -> ${mute.uptime}`);
      // It still receives: it keeps up.
      const top = Math.max(...(await Promise.all(others.map((n) => net.node(n).height()))));
      assert.ok((await net.node('validator-1').height()) >= top - 2, 'validator-1 keeps up while mute');
      const heal = await devnetCli(['partition', '--heal', '--home', home]);
      assert.equal(heal.code, 0, heal.stderr);
      await net.synced();
      const healed = await of('validator-1');
      await net.waitBlocks(12);
      const after = await of('validator-1');
      net.log(`validator-1 healed: missed ${healed.missed_slots} -> ${after.missed_slots} over 12 blocks`);
      assert.ok(
        after.missed_slots <= healed.missed_slots + 1,
        `missed after the heal: ${healed.missed_slots} -> ${after.missed_slots}`,
      );

      // validator-2 cannot receive: every other node's messages do not reach it.
      const cut = await devnetCli(['partition', '--one-way', 'validator-0', 'validator-2', '--home', home]);
      assert.equal(cut.code, 0, cut.stderr);
      assert.match(cut.stdout, /validator-0's messages no longer reach validator-2/);
      for (const from of ['validator-1', 'validator-3']) await net.conditions.oneWay(from, 'validator-2');
      const listed = JSON.parse((await devnetCli(['net', '--json', '--home', home])).stdout) as {
        nodes: Record<string, { deaf_to: string[] }>;
      };
      assert.deepEqual(listed.nodes['validator-2']!.deaf_to, ['validator-0', 'validator-1', 'validator-3']);
      const h2 = await net.node('validator-2').height();
      const hearing = NAMES.filter((n) => n !== 'validator-2');
      const reached = await net.waitBlocks(8, hearing);
      const deafAt = await net.node('validator-2').height();
      net.log(`validator-2 deaf: at ${deafAt} (from ${h2}) while the others reached ${reached}`);
      assert.ok(deafAt <= h2 + 1, `validator-2 went from ${h2} to ${deafAt}`);
      await net.heal();
      const caught = await net.synced();
      net.log(`validator-2 healed: synced at ${caught}`);

      // A ring over 4: each node sees its two neighbours; heal.
      const ring = await devnetCli(['partition', '--shape', 'ring', '--json', '--home', home]);
      assert.equal(ring.code, 0, ring.stderr);
      assert.equal((JSON.parse(ring.stdout) as { groups: string[][] }).groups.length, 4);
      await net.heal();
      await net.synced();
      const bad = await devnetCli(['partition', '--one-way', 'validator-0', '--home', home]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--one-way takes two nodes: A B/);
    },
  ),
);

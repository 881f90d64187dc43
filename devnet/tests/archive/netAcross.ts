/**
 * Network conditions come back from an archive: a devnet with zones set at run time (devnet
 * zones), a node's rule (devnet net) and a stopped-and-started node is saved, torn down, and
 * restored into another home on `runtime`: devnet/net.json is in the archive, the conditions in
 * force are the same, each node's net_conditions.json names the restored peers, and the probe
 * measures the round trip asked. Run on each runtime by netArchiveProcess.test.ts and
 * netArchiveDocker.test.ts.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { NET_CONDITIONS_FILE, parseNetConditions } from '@chain-devnet/node/testnet';
import { probeLinks } from '../../src/operations/netProbe.js';
import type { RuntimeKind } from '../../src/runtime/runtime.js';
import { Testnet, withTestnet } from '../../src/testkit/index.js';

export function conditionsAcrossAnArchive(runtime: RuntimeKind, skip: string | false = false): void {
  test(`${runtime}: network conditions are saved and come back on restore`, {
    skip,
    timeout: 400_000,
  }, async () => {
    const file = join(tmpdir(), `net-archive-${runtime}-${process.pid}.tar.gz`);
    const saved = await withTestnet(
      {
        manifest: { validators: 3, block_time: '400ms', seed: `net-archive-${runtime}`, monitoring: false },
        runtime,
        name: `net-archive-${runtime}`,
      },
      async (net) => {
        await net.conditions.zones({
          matrix: { a: { b: { rtt_ms: 120 } }, b: {} },
          nodes: { 'validator-0': 'a', 'validator-1': 'b', 'validator-2': 'b' },
        });
        await net.conditions.set('validator-2', { rate: '2mbit', latency: '30ms' }, { direction: 'in' });
        await net.waitBlocks(3);
        const inForce = await net.conditions.inForce();
        const r = await net.save(file);
        assert.ok(
          r.manifest.files.some((f) => f.path === 'devnet/net.json'),
          'devnet/net.json is archived',
        );
        assert.ok(
          !r.manifest.files.some((f) => f.path.endsWith(NET_CONDITIONS_FILE)),
          'no node file is archived',
        );
        return inForce;
      },
    );
    const net = await Testnet.restore(file, { runtime, name: `net-restored-${runtime}` });
    try {
      assert.deepEqual(await net.conditions.inForce(), saved);
      const text = await readFile(join(net.home, 'nodes', 'validator-0', NET_CONDITIONS_FILE), 'utf8');
      const c = parseNetConditions(text);
      assert.ok(c.ok, text);
      const peers = await net.devnet.peers();
      const v1 = peers.find((p) => p.name === 'validator-1')!.peerId;
      assert.deepEqual(
        c.conditions.links.find((l) => l.peer === v1),
        { peer: v1, direction: 'out', latencyMs: 60, jitterMs: 0, loss: 0 },
      );
      await net.waitBlocks(3);
      const row = await waitFor('validator-0 probes validator-1', 30_000, async () => {
        const x = (await probeLinks(net.devnet, 'validator-0', 0)).find((p) => p.to === 'validator-1')!;
        return x.measured === null ? null : x;
      });
      net.log(`restored: ${JSON.stringify(row)}`);
      assert.equal(row.asked.rtt_ms, 120);
      assert.ok(row.measured!.rtt_ms >= 110 && row.measured!.rtt_ms < 120 + 250, JSON.stringify(row));
      await net.stop();
    } catch (e) {
      await net.stop({ failed: true });
      throw e;
    } finally {
      await rm(file, { force: true });
    }
  });
}

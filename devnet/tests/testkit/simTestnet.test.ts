/**
 * The testkit on the simulation (SimTestnet): the same calls as on a devnet (node handles, tx,
 * partitions, the expectations, the invariants at stop) over the node's own code in virtual
 * time; the same seed twice gives the same run, another seed another; a failed run keeps every
 * node's log and the seed that replays it; what the simulation lacks is refused, naming it; and
 * the process's waits are the wall's again once it stops.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { now } from '@chain-devnet/kit/wait';
import { SimTestnet, TestkitUsageError, Wallet, withSimTestnet } from '../../src/testkit/index.js';

const MANIFEST = { validators: 4, block_time: '500ms', epoch_length: 10 } as const;

describe('the testkit on the simulation', () => {
  it('the same seed twice (a transfer, a kill, a partition): the same keys and headers; another seed: another run', async () => {
    const fingerprints: string[] = [];
    const wallets: string[] = [];
    for (const seed of ['one', 'one', 'two']) {
      const net = await SimTestnet.start({ manifest: MANIFEST, seed, log: () => undefined });
      try {
        await net.waitBlocks(3);
        const to = Wallet.random('to');
        wallets.push(to.address);
        const sent = await net.tx('TRANSFER', { from: 'account-0', to: to.address, amount: '2coin' });
        assert.equal(sent.receipt?.status, 'confirmed');
        await net.node('validator-2').kill();
        await net.waitBlocks(3, ['validator-0', 'validator-1', 'validator-3']);
        await net.node('validator-2').start();
        await net.partition([['validator-3']]);
        await net.waitBlocks(2, ['validator-0', 'validator-1', 'validator-2']);
        await net.heal();
        await net.synced();
        fingerprints.push(await net.fingerprint());
      } finally {
        await net.stop();
      }
    }
    assert.equal(fingerprints[0], fingerprints[1], 'seed one twice');
    assert.equal(wallets[0], wallets[1], "the testkit's randomness is the seed's");
    assert.notEqual(fingerprints[0], fingerprints[2], 'seed two');
    assert.notEqual(wallets[0], wallets[2]);
  });

  it('a validator partitioned away falls behind while the others go on, and syncs once healed', async () => {
    const net = await SimTestnet.start({ manifest: MANIFEST, seed: 'partition', log: () => undefined });
    try {
      await net.waitBlocks(2);
      await net.partition([['validator-3']]);
      assert.equal(net.isPartitioned, true);
      const cut = await net.node('validator-3').height();
      const others = ['validator-0', 'validator-1', 'validator-2'];
      const reached = await net.waitBlocks(10, others);
      assert.ok((await net.node('validator-3').height()) <= cut + 1, 'the cut-off validator stays behind');
      await net.heal();
      assert.equal(net.isPartitioned, false);
      assert.ok((await net.synced()) >= reached);
      assert.deepEqual(
        (await net.status()).map((n) => n.state),
        ['running', 'running', 'running', 'running'],
      );
    } finally {
      await net.stop(); // the invariants over the whole run, on every node
    }
  });

  it("net.conditions: the manifest's zones in force; a validator 3 s behind on what it receives falls behind, and catches up once cleared; bad values refused", async () => {
    const manifest = {
      block_time: '500ms',
      epoch_length: 1000,
      zones: { eu: { us: { rtt_ms: 100 } }, us: {} },
      validators: [{ zone: 'eu' }, { zone: 'eu' }, { zone: 'us' }, { zone: 'us' }],
    };
    const net = await SimTestnet.start({ manifest, seed: 'conditions', log: () => undefined });
    try {
      const zoned = await net.conditions.inForce();
      assert.equal(zoned['validator-0']!.zone, 'eu');
      assert.deepEqual(
        zoned['validator-0']!.links.map((l) => `${l.peer} ${l.direction} ${l.latency_ms}`),
        ['validator-2 out 50', 'validator-3 out 50'],
        'half the round trip on out to each peer of the other zone',
      );
      await net.waitBlocks(2);
      await net.conditions.set('validator-3', { latency: '3s' }, { direction: 'in' });
      const others = ['validator-0', 'validator-1', 'validator-2'];
      const reached = await net.waitBlocks(4, others);
      const t0 = now();
      assert.ok((await net.node('validator-3').height()) < reached, 'validator-3 is behind');
      // It hears the last precommits of that height 3 s after the others did.
      await net.chain.waitHeight(reached, ['validator-3']);
      const lag = now() - t0;
      assert.ok(lag >= 2_500 && lag <= 3_600, `validator-3 reached ${reached} ${lag} ms after the others`);
      assert.match(
        (await net.net.logLines('validator-3')).join('\n'),
        /"msg":"net conditions set","links":3,"deaf_to":0/,
        'the node logs its conditions as chain-node does',
      );
      await net.conditions.clear('validator-3');
      assert.deepEqual((await net.conditions.inForce())['validator-3']!.links.length, 2, 'the zones stay');
      assert.ok((await net.synced()) >= reached);
      await assert.rejects(net.conditions.set('validator-9', { latency: '1s' }), /no node named validator-9/);
      await assert.rejects(
        net.conditions.set('validator-1', { loss: '150%' }),
        (e: Error) => e instanceof TestkitUsageError && /loss must be a loss/.test(e.message),
      );
    } finally {
      await net.stop();
    }
  });

  it('withSimTestnet: the body runs on a started simulation, stopped after it whatever happens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-testnet-with-'));
    try {
      const heights = await withSimTestnet(
        { manifest: MANIFEST, seed: 'with', log: () => undefined },
        async (net) => {
          await net.expect.height({ atLeast: 4 });
          return net.chain.heights(net.names());
        },
      );
      assert.equal(heights.size, 4);
      await assert.rejects(
        withSimTestnet(
          { manifest: MANIFEST, seed: 'with-fails', keepLogsDir: dir, log: () => undefined },
          async () => {
            throw new Error('the body failed');
          },
        ),
        /the body failed/,
      );
      assert.equal((await readdir(dir)).length, 1, 'the failed run kept its logs');
      // Stopped both times: another simulation starts.
      await withSimTestnet({ manifest: MANIFEST, log: () => undefined }, async () => undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a failed run keeps every node log and the seed that replays it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-testnet-logs-'));
    try {
      const net = await SimTestnet.start({
        manifest: MANIFEST,
        seed: 'kept',
        keepLogsDir: dir,
        log: () => undefined,
      });
      await net.waitBlocks(2);
      net.markFailed();
      await net.stop({ why: 'a check of the test failed' });
      const [kept] = await readdir(dir);
      const why = await readFile(join(dir, kept!, 'why.txt'), 'utf8');
      assert.match(why, /a check of the test failed/);
      assert.match(why, /TESTKIT_SEED=kept/);
      const lines = (await readFile(join(dir, kept!, 'validator-0.log'), 'utf8')).trim().split('\n');
      assert.ok(lines.length > 2);
      for (const l of lines) assert.equal(typeof (JSON.parse(l) as { msg: unknown }).msg, 'string');
      // And every node's log on one time axis: each line once, in time order.
      const timeline = (await readFile(join(dir, kept!, 'timeline.log'), 'utf8')).trim().split('\n');
      let all = 0;
      for (const n of ['validator-0', 'validator-1', 'validator-2', 'validator-3'])
        all += (await readFile(join(dir, kept!, `${n}.log`), 'utf8')).trim().split('\n').length;
      assert.equal(timeline.length, all);
      const times = timeline.map((l) => l.slice(0, 23));
      assert.deepEqual(times, [...times].sort());
      assert.match(
        timeline.find((l) => l.includes('block committed'))!,
        /^\S+ \S+ {2}validator-\d {2}INFO {3}block committed {2}.*height=1/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('what the simulation lacks is refused naming it; one simulation at a time; the wall clock back after', async () => {
    await assert.rejects(
      SimTestnet.start({ manifest: { validators: 4, market: true }, log: () => undefined }),
      (e: Error) => e instanceof TestkitUsageError && /manifest\.market: not simulated yet/.test(e.message),
    );
    const net = await SimTestnet.start({ manifest: MANIFEST, seed: 'refusals', log: () => undefined });
    try {
      await assert.rejects(SimTestnet.start({ manifest: MANIFEST, log: () => undefined }), /already runs/);
      await assert.rejects(
        net.node('validator-1').upgrade('git:HEAD'),
        /devnet upgrade validator-1 --to git:HEAD is not simulated \(the simulation runs this checkout's code only\)/,
      );
      assert.equal((await net.node('validator-1').diskFull()).full, true, 'disk faults are simulated');
      assert.equal((await net.node('validator-1').clearDisk()).full, false);
      await assert.rejects(
        net.tx('TRANSFER', { from: 'nobody', to: 'account-1', amount: '1coin' }),
        /nobody/,
      );
      assert.ok(Math.abs(now() - Date.now()) > 60_000, "the waits' clock is the simulation's");
    } finally {
      await net.stop();
    }
    assert.ok(Math.abs(now() - Date.now()) < 1_000, "the waits' clock is the wall's again");
  });
});

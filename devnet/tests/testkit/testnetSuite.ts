/**
 * The testkit against a real devnet, the same checks on every runtime: node handles (pause,
 * resume, kill, start, restart), a partition and its healing, log and metric expectations, a
 * load that goes on through a crash, a step written to fail (its failure names the step, the
 * node and the height), and stop: the invariants hold and nothing of the devnet is left.
 */
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { processesMentioning } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import type { RuntimeKind } from '../../src/runtime/runtime.js';
import { StepError, TestkitError, Testnet } from '../../src/testkit/index.js';

export interface TestnetSuiteOptions {
  readonly runtime: RuntimeKind;
  /** What the runtime left of a devnet besides processes (containers, networks, volumes). */
  readonly leftovers?: (home: string) => Promise<string[]>;
  readonly skip?: string | false;
}

export function testnetSuite(o: TestnetSuiteOptions): void {
  describe(`the testkit on the ${o.runtime} runtime`, { skip: o.skip ?? false }, () => {
    let net: Testnet;
    let home = '';

    before(
      async () => {
        net = await Testnet.start({
          manifest: { validators: 4, block_time: '400ms', epoch_length: 1000, seed: `testkit-${o.runtime}` },
          runtime: o.runtime,
          name: `testkit-${o.runtime}`,
        });
        home = net.home;
      },
      { timeout: 300_000 },
    );
    after(() => net?.stop({ failed: true, invariants: false }), { timeout: 300_000 });

    /** A test as a step of the run: a failure names it and marks the run failed (its logs are kept). */
    const step = (name: string, body: () => Promise<void>) =>
      test(name, { timeout: 240_000 }, () => net.step(name, body));

    step('start: every node answers with a final block, its handle and the devnet keys', async () => {
      assert.equal(net.runtime, o.runtime);
      assert.deepEqual(net.names(), ['validator-0', 'validator-1', 'validator-2', 'validator-3']);
      assert.equal(net.params.blockTimeMs, 400);
      assert.ok((await net.node('validator-2').height()) >= 1);
      assert.equal(await net.node('validator-2').state(), 'running');
      assert.ok(net.accounts.some((a) => a.name === 'account-0'));
    });

    step('partition: the side of 3 of 4 goes on, the node alone stalls; healed, it catches up', async () => {
      const marks = await net.logMarks();
      await net.partition([['validator-3']]);
      // The nodes log the peers they now refuse.
      await net.expect.log({ contains: '"msg":"blocked peers set"', since: marks, within: { blocks: 10 } });
      await net.expect.metric({
        node: 'validator-3',
        metric: 'chain_p2p_peers',
        op: '==',
        value: 0,
        within: { blocks: 10 },
      });
      const alone = await net.node('validator-3').height();
      const top = await net.waitBlocks(6, ['validator-0', 'validator-1', 'validator-2']);
      const stalled = await net.node('validator-3').height();
      assert.ok(stalled <= alone + 1, `validator-3 went from ${alone} to ${stalled} alone`);
      assert.ok(top > stalled + 3, `the majority at ${top}, validator-3 at ${stalled}`);
      await net.heal();
      await net.expect.synced({ within: { blocks: 20 } });
      await net.expect.metric({
        node: 'validator-3',
        metric: 'chain_p2p_peers',
        op: '==',
        value: 3,
        within: { blocks: 20 },
      });
    });

    step('pause and resume, kill and start, restart: the node stops, then catches up', async () => {
      const v2 = net.node('validator-2');
      await v2.pause();
      assert.equal(await v2.state(), 'paused');
      await net.waitBlocks(3, ['validator-0', 'validator-1', 'validator-3']);
      await v2.resume();
      await net.expect.synced({ within: { blocks: 20 } });
      await net.node('validator-1').kill();
      assert.equal(await net.node('validator-1').state(), 'stopped');
      await net.node('validator-1').start();
      await net.node('validator-0').restart();
      await net.expect.synced({ within: { blocks: 30 } });
      await net.expect.metric({
        node: 'validator-1',
        metric: 'chain_block_height',
        op: '>=',
        other: { node: 'validator-0' },
        plus: -2,
      });
      await net.expect.noLog({ matches: '"level":"error"', for: { blocks: 2 } });
    });

    step(
      'load: a count of a mix of types through a crash, every one decided, the latencies reported',
      async () => {
        // Paced, so that it is still sending through the crash: unpaced, with several in flight
        // per account, the 24 are decided in about a second.
        const load = await net.load({
          count: 24,
          rate: 4,
          accounts: 3,
          mix: { TRANSFER: 0.6, DELEGATE: 0.3, UNDELEGATE: 0.1 },
        });
        await waitFor('the load to confirm a few', net.within(10), async () => load.report().confirmed >= 4);
        await net.node('validator-2').kill();
        await net.waitBlocks(3, ['validator-0', 'validator-1', 'validator-3']);
        await net.node('validator-2').start();
        const r = await load.done();
        net.log(`load: ${JSON.stringify(r)}`);
        assert.equal(r.submitted, 24);
        assert.equal(r.confirmed + r.failed + r.rejected + r.pending, r.submitted);
        assert.equal(r.rejected, 0, JSON.stringify(r.reasons));
        assert.equal(r.failed, 0, JSON.stringify(r.reasons));
        assert.equal(r.confirmed, 24);
        assert.equal(
          Object.values(r.confirmedByType).reduce((a, b) => a + b, 0),
          r.confirmed,
        );
        assert.ok(
          r.latencyMs.p50! > 0 &&
            r.latencyMs.p50! <= r.latencyMs.p99! &&
            r.latencyMs.p99! <= r.latencyMs.max!,
        );
        // Every confirmed one is in the ledger the invariants check.
        for (const t of load.confirmed()) assert.ok(net.ledger.all().some((c) => c.hash === t.hash));
        // A rate bounds it: 4 a second for 2 s sends about 8.
        const paced = await net.load({ rate: 4, duration: 2, accounts: 4 });
        const p = await paced.done();
        assert.ok(p.submitted >= 4 && p.submitted <= 10, JSON.stringify(p));
        await net.expect.synced({ within: { blocks: 20 } });
      },
    );

    test('a step written to fail fails naming the step, the node and its height', async () => {
      const failedBefore = net.failed;
      const e = await net
        .step('account-2 holds one wei', () =>
          net.expect.account({ account: 'account-2', balance: '1wei', within: { blocks: 1 } }),
        )
        .then(
          () => assert.fail('it held'),
          (x: unknown) => x,
        );
      assert.ok(e instanceof TestkitError, String(e));
      assert.equal(e.step, 'account-2 holds one wei');
      assert.equal(e.node, 'validator-0');
      assert.ok(e.height !== null && e.height > 10, e.message);
      assert.equal(e.expected, 'account-2 with balance 1 wei within 1 blocks');
      assert.equal(e.found, 'balance 1000000000000000000000000 wei, nonce 0');
      assert.match(
        e.message,
        /^step "account-2 holds one wei": validator-0 at height \d+: expected account-2 /,
      );
      // Any other error inside a step carries the step's name.
      const other = await net
        .step('a plain assert', async () => assert.equal(1, 2, 'one is not two'))
        .then(
          () => assert.fail('it held'),
          (x: unknown) => x,
        );
      assert.ok(other instanceof StepError);
      assert.match(other.message, /^step "a plain assert": one is not two/);
      net.failed = failedBefore; // written to fail: the run itself did not
    });

    test('stop: the invariants hold over the whole run, and nothing of the devnet is left', async () => {
      await net.stop();
      await assert.rejects(access(home), 'the devnet folder is gone');
      assert.deepEqual(await processesMentioning(home), []);
      if (o.leftovers) assert.deepEqual(await o.leftovers(home), []);
    });
  });
}

/**
 * The simulated nodes' RPC through a real RpcClient, on the waits' clock of the simulation: a
 * client polls a node as it polls a real one and the virtual clock moves only while it waits, so
 * a minute of chain time takes a fraction of a wall second; a node down refuses, a paused one
 * answers nothing until the wait runs out (in virtual time); and the same seed driven by the same
 * client code gives the same chains and the same logs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimeoutError, useWaitClock, waitFor } from '@chain-devnet/kit/wait';
import { RpcUnreachableError } from '../../../src/client/jsonHttp.js';
import { RpcClient } from '../../../src/client/rpcClient.js';
import { SimCluster } from '../../../src/sim/simCluster.js';

async function drive<T>(seed: string, work: (c: SimCluster, rpc: (n: string) => RpcClient) => Promise<T>) {
  const cluster = await SimCluster.open({ seed, validators: 4 });
  const restore = useWaitClock(cluster.waitClock());
  try {
    const rpc = (n: string) => new RpcClient(cluster.rpcUrl(n), 5_000, {}, cluster.rpcTransport);
    return { value: await work(cluster, rpc), cluster };
  } finally {
    restore();
    await cluster.close();
  }
}

describe("the simulation's RPC, on the simulation's clock", () => {
  it('a client waits for heights in virtual time: a minute of chain time in well under a wall minute', async () => {
    const wall = Date.now();
    const { value, cluster } = await drive('rpc', async (c, rpc) => {
      const start = c.elapsedMs;
      const status = await waitFor('height 60', 120_000, async () => {
        const s = await rpc('validator-0').status();
        return s.height >= 60 ? s : null;
      });
      return { status, virtualMs: c.elapsedMs - start };
    });
    assert.ok(value.status.height >= 60);
    assert.ok(value.virtualMs >= 59_000, `${value.virtualMs} virtual ms for 60 heights of 1 s`);
    assert.ok(Date.now() - wall < value.virtualMs, 'faster than the chain time it covered');
    assert.deepEqual((await cluster.chains()).forks, []);
  });

  it('a node down refuses; a paused one answers nothing until the wait runs out; an unknown one is not found', async () => {
    await drive('rpc-faults', async (c, rpc) => {
      await waitFor('height 3', 30_000, async () => (await rpc('validator-3').status()).height >= 3);
      await c.node('validator-3').crash();
      await assert.rejects(rpc('validator-3').status(), (e: RpcUnreachableError) => {
        assert.ok(e instanceof RpcUnreachableError);
        assert.equal(e.reason, 'ECONNREFUSED');
        return true;
      });
      c.node('validator-2').pause();
      const before = c.elapsedMs;
      await assert.rejects(rpc('validator-2').status(), RpcUnreachableError);
      assert.ok(c.elapsedMs - before >= 5_000, 'the request waited its 5 s, in virtual time');
      c.node('validator-2').unpause();
      assert.ok((await rpc('validator-2').status()).height >= 3);
      await assert.rejects(
        new RpcClient('http://validator-9.sim', 5_000, {}, c.rpcTransport).status(),
        RpcUnreachableError,
      );
      // And a wait that cannot be met runs out in virtual time, naming what it waited for.
      await assert.rejects(
        waitFor('validator-3 to answer', 2_000, () => rpc('validator-3').status()),
        TimeoutError,
      );
    });
  });

  it('the same seed, driven by the same client code: the same chains and the same logs', async () => {
    const run = () =>
      drive('rpc-same', async (c, rpc) => {
        await waitFor('height 8', 60_000, async () => (await rpc('validator-1').status()).height >= 8);
        await c.node('validator-0').crash();
        await waitFor('height 12', 60_000, async () => (await rpc('validator-2').status()).height >= 12);
        await c.node('validator-0').start();
        await waitFor(
          'validator-0 back',
          60_000,
          async () => (await rpc('validator-0').status()).height >= 14,
        );
        return {
          fingerprint: (await c.chains()).fingerprint,
          log: c.node('validator-0').logLines.join('\n'),
        };
      });
    const [a, b] = [(await run()).value, (await run()).value];
    assert.equal(a.fingerprint, b.fingerprint);
    assert.ok(a.log.length > 0, 'the node logged');
    assert.equal(a.log, b.log);
  });
});

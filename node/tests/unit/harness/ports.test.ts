/** The free-port finder: bases below the ephemeral range, every port of the plan free, a taken one refused. */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { baseRange, freeBasePort, portFree } from '../../../src/harness/index.js';
import { networkPorts } from '../../../src/testnet/index.js';

describe('free ports', () => {
  it('portFree tells a bound port from a free one', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      assert.equal(await portFree(port), false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    assert.equal(await portFree(port), true);
  });

  it('a plan drawn anywhere in its range stays in 10000-32767, below the ephemeral range', () => {
    const plans = [
      (b: number) => networkPorts(b, 64),
      (b: number) => [...networkPorts(b, 8), b + 1090, b + 1091],
    ];
    for (const plan of plans) {
      const { lowest, highest } = baseRange(plan);
      assert.equal(lowest, 10_000);
      assert.equal(Math.max(...plan(highest)), 32_767, 'the highest base reaches the last port below 32768');
    }
  });

  it('the base it finds has every port of its plan free', async () => {
    const base = await freeBasePort((b) => networkPorts(b, 8));
    for (const p of networkPorts(base, 8)) assert.ok(await portFree(p), `port ${p} is free`);
  });

  it('a plan that always holds a taken port finds nothing, and one too wide to fit is refused', async () => {
    // A taken port low enough that a plan holding it fits below the ephemeral range.
    let port = 15_000;
    while (!(await portFree(port))) port++;
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await assert.rejects(
        freeBasePort((b) => [b, port], 5),
        /no free range of ports for the plan after 5 attempts/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    await assert.rejects(
      freeBasePort((b) => [b, b + 30_000]),
      RangeError,
    );
  });
});

/** The free-port finder: bases below the ephemeral range, every port of the plan free, a taken one refused. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { baseRange, freeBasePort, portFree } from '../../src/ports/index.js';

/** A devnet's nodes' ports from base `b`: RPC on b+i, p2p on b+1000+i. */
const nodePorts = (b: number, nodes: number) =>
  Array.from({ length: nodes }, (_, i) => [b + i, b + 1000 + i]).flat();

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
      // A devnet's plan: node i's RPC on b+i and p2p on b+1000+i (64 nodes), and with monitoring.
      (b: number) => nodePorts(b, 64),
      (b: number) => [...nodePorts(b, 8), b + 1090, b + 1091],
    ];
    for (const plan of plans) {
      const { lowest, highest } = baseRange(plan);
      assert.equal(lowest, 10_000);
      assert.equal(Math.max(...plan(highest)), 32_767, 'the highest base reaches the last port below 32768');
    }
  });

  it('the base it finds has every port of its plan free', async () => {
    const base = await freeBasePort((b) => nodePorts(b, 8));
    for (const p of nodePorts(base, 8)) assert.ok(await portFree(p), `port ${p} is free`);
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

describe('ports handed out are held until their drawer is gone', () => {
  it('a base drawn by a live process is not handed out again, even while its ports are free', async () => {
    // A drawer in another process that lives until told to end (as a test file holds the
    // devnet it drew for while one of its nodes is stopped or upgraded: its ports free for a while).
    const harness = new URL('../../src/ports/index.js', import.meta.url).pathname;
    // A port free now, low enough that a plan holding it fits below the ephemeral range.
    let port = 14_000 + Math.floor(Math.random() * 4_000);
    while (!(await portFree(port))) port++;
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { freeBasePort } = await import(${JSON.stringify(harness)});
         await freeBasePort(() => [${port}]);
         process.stdout.write('drawn\\n');
         process.stdin.resume();`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      assert.equal(line.toString(), 'drawn\n');
      assert.ok(await portFree(port), `port ${port} is free`);
      await assert.rejects(
        freeBasePort(() => [port], 5),
        /no free range of ports for the plan after 5 attempts/,
        'a port another live process drew is not handed out',
      );
      child.kill('SIGKILL');
      await once(child, 'exit');
      // Its drawer gone (killed: nothing released by hand), the port can be drawn again.
      await freeBasePort(() => [port], 5);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('two draws of one process never share a port', async () => {
    const first = await freeBasePort((b) => nodePorts(b, 4));
    const taken = new Set(nodePorts(first, 4));
    for (let i = 0; i < 20; i++) {
      const next = await freeBasePort((b) => nodePorts(b, 4));
      for (const p of nodePorts(next, 4)) assert.ok(!taken.has(p), `port ${p} drawn twice`);
      for (const p of nodePorts(next, 4)) taken.add(p);
    }
  });
});

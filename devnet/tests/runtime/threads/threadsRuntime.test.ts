/**
 * The threads runtime against a real devnet of chain-node threads in one host process on
 * 127.0.0.1: the checks of every runtime (runtimeSuite.ts), plus its own: one process runs every
 * node, and a stopped devnet moves to the process runtime and back with its chain.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { processesMentioning } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import type { StatusJson, UpJson } from '../../../src/json/jsonShapes.js';
import { runtimeSuite } from '../runtimeSuite.js';

runtimeSuite({
  runtime: 'threads',
  more: (s) => {
    const json = async <T>(...args: string[]) => {
      const r = await s.cli(...args, '--json');
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as T;
    };
    const nodeProcesses = async () =>
      (await processesMentioning(s.home())).filter((p) => p.includes('chain-node'));
    const hosts = async () =>
      (await processesMentioning(s.home())).filter((p) => p.includes(`devnet.mjs host --home ${s.home()}`));

    test('one host process runs every node; no node has a process of its own', async () => {
      assert.equal((await hosts()).length, 1, (await processesMentioning(s.home())).join('\n'));
      assert.deepEqual(await nodeProcesses(), [], 'no chain-node process: the nodes are threads');
    });

    test('a stopped devnet moves to processes and back, its chain going on', async () => {
      await json('stop');
      assert.equal((await json<StatusJson>('status')).status, 'stopped');
      assert.equal((await json<UpJson>('up', '--runtime', 'process')).runtime, 'process');
      assert.equal((await json<StatusJson>('status')).runtime, 'process');
      await waitFor(
        'the host to go after its last node (it waits a moment for a restart)',
        10_000,
        async () => (await hosts()).length === 0,
      );
      assert.ok((await nodeProcesses()).length >= 5, 'the five nodes are processes now');
      const h = await s.heightOf('validator-0');
      await json('stop');
      assert.equal((await json<UpJson>('up', '--runtime', 'threads')).runtime, 'threads');
      assert.deepEqual(await nodeProcesses(), [], 'threads again');
      await waitFor(
        `validator-0 past ${h + 2} on threads again`,
        s.bound(6),
        async () => (await s.heightOf('validator-0')) >= h + 2,
      );
    });
  },
});

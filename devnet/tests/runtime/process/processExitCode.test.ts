/**
 * The process runtime's exit code of a node that ended by itself (a halt for an upgrade plan): the
 * node's waiter writes the status just after the process is gone, so a node already seen stopped
 * may not have it yet. The e2e upgrade rehearsal read null there for a node that halted with 3.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Layout } from '../../../src/base/layout.js';
import { ProcessNode } from '../../../src/runtime/process/nodeHandle.js';

describe('process runtime: the exit code of a node that ended by itself', () => {
  let home: string;
  let layout: Layout;
  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'devnet-exit-code-'));
    layout = new Layout(home);
    await mkdir(layout.nodeHome('validator-0'), { recursive: true });
    await mkdir(join(home, 'run'), { recursive: true });
  });
  after(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('is read once its waiter writes it, also a moment after the process is gone', async () => {
    // A process that has ended: its pid file stays until the devnet reaps it.
    const gone = spawnSync('true').pid;
    await writeFile(layout.pidFile('validator-0'), `${gone}\n`);
    const node = new ProcessNode(layout, 'validator-0');
    assert.equal(await node.state(), 'stopped');
    setTimeout(() => void writeFile(layout.exitFile('validator-0'), '3\n'), 300);
    assert.equal(await node.exitCode(), 3);
  });

  it('is null for a node that never ran, without waiting for a waiter it never had', async () => {
    const node = new ProcessNode(layout, 'validator-1');
    assert.equal(await node.exitCode(), null);
  });
});

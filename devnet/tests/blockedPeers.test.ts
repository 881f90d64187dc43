/**
 * The blocked-peers lists every runtime's disconnect, connect and partition write (no node runs
 * here: the lists are files, and what each node would refuse is read back from them).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DevnetError } from '../src/errors.js';
import { Layout } from '../src/layout.js';
import { BlockedPeers } from '../src/runtime/blockedPeers.js';
import type { PeerInfo } from '../src/runtime/runtime.js';

const ALL: PeerInfo[] = ['a', 'b', 'c', 'd'].map((name, i) => ({
  name,
  peerId: `peer-${name}`,
  p2pPort: 9000 + i,
}));

describe('blocked-peers lists', () => {
  let dir = '';
  let layout: Layout;
  let copied: string[] = [];
  let blocked: BlockedPeers;

  /** The names each node refuses, from its list on disk. */
  const refused = async (): Promise<Record<string, string[]>> => {
    const out: Record<string, string[]> = {};
    for (const p of ALL) {
      const ids = JSON.parse(await readFile(blocked.file(p.name), 'utf8')) as string[];
      out[p.name] = ids.map((id) => id.replace('peer-', ''));
    }
    return out;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blocked-peers-'));
    layout = new Layout(dir);
    for (const p of ALL) await mkdir(layout.nodeHome(p.name), { recursive: true });
    blocked = new BlockedPeers(layout, async (name) => {
      copied.push(name);
    });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('disconnect cuts one node off both ways; every list is handed on (onWrite)', async () => {
    copied = [];
    await blocked.disconnect('a', ALL);
    assert.deepEqual(await refused(), { a: ['b', 'c', 'd'], b: ['a'], c: ['a'], d: ['a'] });
    assert.deepEqual(copied, ['a', 'b', 'c', 'd']);
    assert.equal(await blocked.isDisconnected('a'), true);
    assert.equal(await blocked.isDisconnected('b'), false);
  });

  test('a partition adds to a disconnect, and connect leaves the partition in force', async () => {
    await blocked.partition(
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
      ALL,
    );
    assert.deepEqual(await refused(), {
      a: ['b', 'c', 'd'],
      b: ['a', 'c', 'd'],
      c: ['a', 'b'],
      d: ['a', 'b'],
    });
    await blocked.connect('a', ALL);
    assert.deepEqual(await refused(), { a: ['c', 'd'], b: ['c', 'd'], c: ['a', 'b'], d: ['a', 'b'] });
    assert.equal(await blocked.isDisconnected('a'), false);
  });

  test('healing leaves a disconnect in force; healed and connected, nobody refuses anybody', async () => {
    await blocked.disconnect('d', ALL);
    await blocked.partition(null, ALL);
    assert.deepEqual(await refused(), { a: ['d'], b: ['d'], c: ['d'], d: ['a', 'b', 'c'] });
    await blocked.connect('d', ALL);
    assert.deepEqual(await refused(), { a: [], b: [], c: [], d: [] });
  });

  test('an unknown node is refused with UNKNOWN_NODE, and no list changes', async () => {
    const before = await refused();
    for (const op of [() => blocked.disconnect('x', ALL), () => blocked.partition([['a'], ['x']], ALL)])
      await assert.rejects(op, (e: unknown) => e instanceof DevnetError && e.code === 'UNKNOWN_NODE');
    assert.deepEqual(await refused(), before);
  });
});

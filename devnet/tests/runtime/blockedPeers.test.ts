/**
 * The blocked-peers lists every runtime's disconnect, connect and partition write (no node runs
 * here: the lists are files, and what each node would refuse, the devnet's nodes and a stranger,
 * is read back from them with the node's own parser).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseBlockedPeers, refuses } from '@chain-devnet/node/testnet';
import { DevnetError } from '../../src/base/errors.js';
import { Layout } from '../../src/base/layout.js';
import { BlockedPeers } from '../../src/runtime/blockedPeers.js';
import type { PeerInfo } from '../../src/runtime/runtime.js';

const ALL: PeerInfo[] = ['a', 'b', 'c', 'd'].map((name, i) => ({
  name,
  peerId: `peer-${name}`,
  p2pPort: 9000 + i,
}));

describe('blocked-peers lists', () => {
  let dir = '';
  let layout: Layout;
  let copied: string[] = [];
  /** What the runtime was asked to do beside the lists (docker: its network detach). */
  const cuts: string[] = [];
  let blocked: BlockedPeers;

  /** The names each node refuses (its peers', and `stranger` for a peer outside the devnet), from its file on disk. */
  const refused = async (): Promise<Record<string, string[]>> => {
    const out: Record<string, string[]> = {};
    for (const p of ALL) {
      const rule = parseBlockedPeers(await readFile(blocked.file(p.name), 'utf8'));
      assert.ok(rule !== null, `${p.name}'s file is one of the two forms`);
      out[p.name] = [...ALL.filter((o) => o.name !== p.name).map((o) => o.name), 'stranger'].filter((n) =>
        refuses(rule, `peer-${n}`),
      );
    }
    return out;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blocked-peers-'));
    layout = new Layout(dir);
    for (const p of ALL) await mkdir(layout.nodeHome(p.name), { recursive: true });
    // A runtime whose nodes read their home elsewhere: each list handed on is recorded.
    blocked = new BlockedPeers(layout, {
      node: (name) => ({
        copyHomeFile: async () => {
          copied.push(name);
        },
        cutOff: async (cut) => {
          cuts.push(`${name} ${cut ? 'cut' : 'back'}`);
        },
      }),
    });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('disconnect cuts one node off both ways, and from every stranger; every list is handed on (copyHomeFile)', async () => {
    copied = [];
    await blocked.disconnect('a', ALL);
    assert.deepEqual(await refused(), { a: ['b', 'c', 'd', 'stranger'], b: ['a'], c: ['a'], d: ['a'] });
    assert.equal(await readFile(blocked.file('a'), 'utf8'), '{"allow":[]}\n', 'every peer');
    assert.deepEqual(copied, ['a', 'b', 'c', 'd']);
    assert.equal(await blocked.isDisconnected('a'), true);
    assert.equal(await blocked.isDisconnected('b'), false);
  });

  test('a partition adds to a disconnect (each side talks to its own nodes only), and connect leaves the partition in force', async () => {
    await blocked.partition(
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
      ALL,
    );
    assert.deepEqual(await refused(), {
      a: ['b', 'c', 'd', 'stranger'],
      b: ['a', 'c', 'd', 'stranger'],
      c: ['a', 'b', 'stranger'],
      d: ['a', 'b', 'stranger'],
    });
    await blocked.connect('a', ALL);
    assert.deepEqual(await refused(), {
      a: ['c', 'd', 'stranger'],
      b: ['c', 'd', 'stranger'],
      c: ['a', 'b', 'stranger'],
      d: ['a', 'b', 'stranger'],
    });
    assert.equal(await blocked.isDisconnected('a'), false);
    assert.deepEqual(
      cuts,
      ['a cut', 'a back'],
      'the runtime is told of a disconnect and a connect, not of a partition',
    );
  });

  test('healing leaves a disconnect in force; healed and connected, nobody refuses anybody', async () => {
    await blocked.disconnect('d', ALL);
    await blocked.partition(null, ALL);
    assert.deepEqual(await refused(), { a: ['d'], b: ['d'], c: ['d'], d: ['a', 'b', 'c', 'stranger'] });
    await blocked.connect('d', ALL);
    assert.deepEqual(await refused(), { a: [], b: [], c: [], d: [] });
    assert.equal(
      await readFile(blocked.file('a'), 'utf8'),
      '[]\n',
      'the first form, when it lists whom to refuse',
    );
  });

  test('an unknown node is refused with UNKNOWN_NODE, and no list changes', async () => {
    const before = await refused();
    for (const op of [() => blocked.disconnect('x', ALL), () => blocked.partition([['a'], ['x']], ALL)])
      await assert.rejects(op, (e: unknown) => e instanceof DevnetError && e.code === 'UNKNOWN_NODE');
    assert.deepEqual(await refused(), before);
  });
});

/**
 * Whom each node dials (testnet/topology.ts): every other node in a small network; in a large
 * one a few, such that the network is still one graph of short paths, and so is every run of
 * consecutive nodes (a contiguous side of a partition).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dialedIndexes,
  FULL_MESH_NODES,
  generateNetwork,
  nodeFileOf,
  peersOf,
} from '../../../src/testnet/index.js';

/** The undirected graph of `count` nodes: a connection where either side dials the other. */
function graph(count: number): Set<number>[] {
  const adj = [...Array(count)].map(() => new Set<number>());
  for (let i = 0; i < count; i++)
    for (const j of dialedIndexes(i, count)) {
      adj[i]!.add(j);
      adj[j]!.add(i);
    }
  return adj;
}

/** Hops from `from` to every node of `within` over edges inside `within` (missing: unreachable). */
function hops(adj: Set<number>[], from: number, within: Set<number>): Map<number, number> {
  const seen = new Map([[from, 0]]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const next of adj[at]!)
      if (within.has(next) && !seen.has(next)) {
        seen.set(next, seen.get(at)! + 1);
        queue.push(next);
      }
  }
  return seen;
}

const range = (from: number, to: number) => new Set([...Array(to - from).keys()].map((i) => i + from));

describe('the nodes each node dials', () => {
  it('is every other node up to FULL_MESH_NODES nodes, in order', () => {
    for (let count = 1; count <= FULL_MESH_NODES; count++)
      for (let i = 0; i < count; i++)
        assert.deepEqual(
          dialedIndexes(i, count),
          [...range(0, count)].filter((j) => j !== i),
          `node ${i} of ${count}`,
        );
  });

  it('is a power of two ahead above it: about 2·log2(n) connections a node instead of n-1', () => {
    assert.deepEqual(dialedIndexes(0, 21), [1, 2, 4, 8, 16]);
    assert.deepEqual(dialedIndexes(20, 21), [0, 1, 3, 7, 15]);
    const connections = (n: number) => graph(n).reduce((sum, peers) => sum + peers.size, 0) / 2;
    assert.equal(connections(21), 105, '21 nodes: 105 connections, not 210');
    assert.equal(connections(50), 300, '50 nodes: 300 connections, not 1,225');
    for (let count = FULL_MESH_NODES + 1; count <= 200; count++) {
      const adj = graph(count);
      const log2 = Math.ceil(Math.log2(count));
      for (let i = 0; i < count; i++) {
        const dialed = dialedIndexes(i, count);
        assert.ok(!dialed.includes(i), `node ${i} of ${count} dials itself`);
        assert.equal(new Set(dialed).size, dialed.length, `node ${i} of ${count} dials a node twice`);
        assert.ok(adj[i]!.size <= 2 * log2, `node ${i} of ${count}: ${adj[i]!.size} peers`);
      }
    }
  });

  it('keeps every node within log2(n) hops of every other, and every run of consecutive nodes connected', () => {
    for (let count = FULL_MESH_NODES + 1; count <= 120; count++) {
      const adj = graph(count);
      const all = range(0, count);
      for (let i = 0; i < count; i++) {
        const reach = hops(adj, i, all);
        assert.equal(reach.size, count, `node ${i} of ${count} does not reach every node`);
        assert.ok(Math.max(...reach.values()) <= Math.ceil(Math.log2(count)), `node ${i} of ${count}: far`);
      }
      // A run of consecutive nodes (wrapping around), as a partition's contiguous side, meets on its own.
      for (let start = 0; start < count; start += 7)
        for (const length of [2, 3, Math.floor(count / 2), count - 1]) {
          const run = new Set([...Array(length).keys()].map((k) => (start + k) % count));
          assert.equal(hops(adj, start, run).size, length, `run of ${length} from ${start} of ${count}`);
        }
    }
  });

  it('is what node.json lists as its bootstrap peers, in a small and in a large network', async () => {
    for (const validators of [4, 21]) {
      const net = generateNetwork({
        seed: 'topology',
        validators,
        developerAccounts: 0,
        basePort: 30_000,
        genesisTime: 1_790_000_000,
      });
      const peers = await peersOf(net.seed, net.nodes);
      for (const [i, n] of net.nodes.entries()) {
        const file = nodeFileOf(n, peers, { host: '127.0.0.1' });
        assert.deepEqual(
          file.bootstrap,
          dialedIndexes(i, validators).map(
            (j) => `/ip4/127.0.0.1/tcp/${peers[j]!.p2pPort}/p2p/${peers[j]!.peerId}`,
          ),
          `${n.name} of ${validators}`,
        );
      }
    }
  });
});

/**
 * What the panel makes of what the nodes say, without a devnet: blocks with their missed slots
 * (the node's own rule), chart samples from /metrics texts and from a Prometheus's answers, and
 * log lines from a runtime's byte stream, also across a re-attach.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { blockToJson, signHeader, ZERO_HASH } from '@chain-devnet/node/chain';
import { sampleOf, sumOf } from '../../src/monitoring/exposition.js';
import type { LogOptions, Runtime } from '../../src/runtime/runtime.js';
import { blockRow, proposerOrder } from '../../src/ui/blocks.js';
import { followLog, freshAfterResume, LineSplitter, MAX_LINE_CHARS } from '../../src/ui/logFollow.js';
import { Ring } from '../../src/ui/ring.js';
import { CHAIN_QUERIES, NODE_QUERIES, NodeScrapeSampler, PrometheusSampler } from '../../src/ui/sampler.js';
import { validatorAnswer } from '../testkit/fakeNodes.js';

const validator = (name: string, proposerIndex: number | null) =>
  validatorAnswer({
    name,
    address: `coinvalcons1${name}`,
    pubKey: '',
    power: '1000',
    account: `coin1${name}`,
    proposerIndex,
  });

/** A block as GET /block/{height} gives it, signed by a throwaway key. */
function blockJson(height: number, round: number, proposer: string) {
  const header = signHeader(
    {
      chainId: 'chain-devnet-1',
      height,
      round,
      prevHash: ZERO_HASH,
      timestamp: 1_700_000_000,
      proposerAddress: proposer,
      pubKey: '',
      txRoot: ZERO_HASH,
      computeRoot: ZERO_HASH,
      stateRoot: ZERO_HASH,
      gasUsed: 0,
      gasLimit: 0,
    },
    new Uint8Array(32).fill(7),
  );
  return blockToJson({ header, txs: [] });
}

describe('blocks in the stream', () => {
  // /validators lists by address; the proposer order is proposer_index (INACTIVE ones have none).
  const listed = [
    validator('c', 2),
    validator('idle', null),
    validator('a', 0),
    validator('d', 3),
    validator('b', 1),
  ];
  const active = proposerOrder(listed);
  const nameOf = (address: string) => address.replace('coinvalcons1', 'node-');

  test('the active set in proposer order', () => {
    assert.deepEqual(
      active.map((v) => v.name),
      ['a', 'b', 'c', 'd'],
    );
  });

  test('a block of round 0 missed nothing; its proposer, hash and transactions are read', () => {
    const row = blockRow(blockJson(9, 0, 'coinvalcons1b'), active, nameOf);
    assert.equal(row.height, 9);
    assert.equal(row.round, 0);
    assert.equal(row.proposer, 'node-b');
    assert.equal(row.txs, 0);
    assert.match(row.hash, /^[0-9a-f]{64}$/);
    assert.deepEqual(row.missed, []);
  });

  test('a block of round r names the proposers of rounds 0 … r−1, in their order, with the node rule counts', () => {
    // Height 9 with 4 active: round r's proposer is active[(9 + r) % 4]: b, c, d, a, b…
    assert.deepEqual(blockRow(blockJson(9, 2, 'coinvalcons1d'), active, nameOf).missed, [
      { validator: 'node-b', slots: 1 },
      { validator: 'node-c', slots: 1 },
    ]);
    // Round 5: b, c, d, a missed once each and b a second time (round 4).
    assert.deepEqual(blockRow(blockJson(9, 5, 'coinvalcons1c'), active, nameOf).missed, [
      { validator: 'node-b', slots: 2 },
      { validator: 'node-c', slots: 1 },
      { validator: 'node-d', slots: 1 },
      { validator: 'node-a', slots: 1 },
    ]);
  });

  test('an answer that is no block is an error, not a row', () => {
    assert.throws(() => blockRow({ header: { height: 3 } } as never, active, nameOf), /block 3/);
  });
});

const metrics = (o: { height: number; cpu: number; txs: [number, number]; sum: number; count: number }) =>
  [
    '# HELP chain_block_height Height',
    '# TYPE chain_block_height gauge',
    `chain_block_height ${o.height}`,
    'chain_mempool_size 3',
    `process_cpu_seconds_total ${o.cpu}`,
    'process_resident_memory_bytes 104857600',
    `chain_transactions_total{tx_type="TRANSFER"} ${o.txs[0]}`,
    `chain_transactions_total{tx_type="STAKE"} ${o.txs[1]}`,
    'chain_transactions_totally_other 1000',
    `chain_block_interval_seconds_sum ${o.sum}`,
    `chain_block_interval_seconds_count ${o.count}`,
    'chain_block_interval_seconds_bucket{le="0.5"} 1',
  ].join('\n');

describe('chart samples from the nodes', () => {
  test('the exposition: an unlabelled sample, and a counter summed over its labels', () => {
    const text = metrics({ height: 5, cpu: 1.5, txs: [10, 2], sum: 2, count: 4 });
    assert.equal(sampleOf(text, 'chain_block_height'), 5);
    assert.equal(sampleOf(text, 'chain_block_interval_seconds_count'), 4);
    assert.equal(sampleOf(text, 'missing'), null);
    assert.equal(sumOf(text, 'chain_transactions_total'), 12);
    assert.equal(sumOf(text, 'missing_total'), null);
  });

  test('rates over the window: CPU in cores, transactions per second, the mean block interval', () => {
    const s = new NodeScrapeSampler();
    const first = s.sample(0, [
      { name: 'v0', metrics: metrics({ height: 5, cpu: 1, txs: [10, 0], sum: 2, count: 4 }) },
    ]);
    assert.deepEqual(first.nodes.v0, { height: 5, mempool: 3, cpu: null, memory: 104_857_600 });
    assert.equal(first.tps, null, 'no rate from one scrape');
    // 4 s later: 2 CPU seconds (half a core), 20 transactions (5/s), 8 blocks in 4 s (0.5 s each).
    const second = s.sample(4_000, [
      { name: 'v0', metrics: metrics({ height: 13, cpu: 3, txs: [28, 2], sum: 6, count: 12 }) },
      { name: 'v1', metrics: null },
    ]);
    assert.deepEqual(second.nodes.v0, { height: 13, mempool: 3, cpu: 0.5, memory: 104_857_600 });
    assert.deepEqual(second.nodes.v1, { height: null, mempool: null, cpu: null, memory: null });
    assert.equal(second.tps, 5);
    assert.equal(second.blockInterval, 0.5);
  });

  test('a node that has included no transaction yet (its counter has no series) gives 0 per second', () => {
    const none = (cpu: number) =>
      metrics({ height: 5, cpu, txs: [0, 0], sum: 2, count: 4 })
        .split('\n')
        .filter((l) => !l.startsWith('chain_transactions_total{'))
        .join('\n');
    const s = new NodeScrapeSampler();
    s.sample(0, [{ name: 'v0', metrics: none(1) }]);
    assert.equal(s.sample(2_000, [{ name: 'v0', metrics: none(2) }]).tps, 0);
  });

  test('a restarted node (its counters back to zero) gives no rate rather than a negative one', () => {
    const s = new NodeScrapeSampler();
    s.sample(0, [
      { name: 'v0', metrics: metrics({ height: 50, cpu: 30, txs: [100, 0], sum: 40, count: 50 }) },
    ]);
    const after = s.sample(2_000, [
      { name: 'v0', metrics: metrics({ height: 50, cpu: 0.2, txs: [0, 0], sum: 0, count: 0 }) },
    ]);
    assert.equal(after.nodes.v0!.cpu, null);
    assert.equal(after.tps, null);
    assert.equal(after.blockInterval, null);
  });
});

describe('chart samples from a Prometheus', () => {
  test('instant queries per node by its label, the chain values as scalars; history on the step grid', async () => {
    const seen: string[] = [];
    const vector = (values: Record<string, string>) => ({
      resultType: 'vector',
      result: Object.entries(values).map(([node, v]) => ({
        metric: node === '' ? {} : { node },
        value: [100, v],
      })),
    });
    const answers: Record<string, unknown> = {
      [NODE_QUERIES.height]: vector({ v0: '12', v1: '11', other: '1' }),
      [NODE_QUERIES.mempool]: vector({ v0: '0' }),
      [NODE_QUERIES.cpu]: vector({ v0: '0.25', v1: 'NaN' }),
      [NODE_QUERIES.memory]: vector({ v0: '1000' }),
      [CHAIN_QUERIES.tps]: vector({ '': '2.5' }),
      [CHAIN_QUERIES.blockInterval]: vector({}),
    };
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const query = url.searchParams.get('query') ?? '';
      seen.push(`${url.pathname} ${query}`);
      let data = answers[query];
      if (url.pathname === '/api/v1/query_range')
        data = {
          resultType: 'matrix',
          result:
            query === NODE_QUERIES.height
              ? [
                  {
                    metric: { node: 'v0' },
                    values: [
                      [90, '1'],
                      [92, '2'],
                    ],
                  },
                ]
              : query === CHAIN_QUERIES.tps
                ? [{ metric: {}, values: [[92, '4']] }]
                : [],
        };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          data === undefined ? { status: 'error', error: 'unknown' } : { status: 'success', data },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const p = new PrometheusSampler(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const s = await p.sample(100_000, ['v0', 'v1']);
      assert.deepEqual(s, {
        t: 100_000,
        nodes: {
          v0: { height: 12, mempool: 0, cpu: 0.25, memory: 1000 },
          v1: { height: 11, mempool: null, cpu: null, memory: null },
        },
        tps: 2.5,
        blockInterval: null,
      });
      const h = await p.history(90_000, 92_000, 2_000, ['v0']);
      assert.deepEqual(h, [
        {
          t: 90_000,
          nodes: { v0: { height: 1, mempool: null, cpu: null, memory: null } },
          tps: null,
          blockInterval: null,
        },
        {
          t: 92_000,
          nodes: { v0: { height: 2, mempool: null, cpu: null, memory: null } },
          tps: 4,
          blockInterval: null,
        },
      ]);
      assert.equal(seen.filter((q) => q.startsWith('/api/v1/query ')).length, 6, 'one query per chart');
      answers[NODE_QUERIES.height] = undefined;
      await assert.rejects(p.sample(100_000, ['v0']), /unknown/, 'an error of Prometheus is an error');
    } finally {
      server.close();
    }
  });
});

describe('log lines', () => {
  test('split at newlines across chunks, CRLF and multi-byte characters included, long lines cut', async () => {
    const got: string[] = [];
    const split = new LineSplitter((lines) => got.push(...lines));
    const write = (b: Buffer) => new Promise<void>((r) => split.write(b, () => r()));
    const euro = Buffer.from('€');
    await write(Buffer.concat([Buffer.from('one\r\ntw'), euro.subarray(0, 1)]));
    await write(Buffer.concat([euro.subarray(1), Buffer.from('o\n\nthree')]));
    assert.deepEqual(got, ['one', 'tw€o']);
    await write(Buffer.from(`\n${'x'.repeat(MAX_LINE_CHARS + 10)}\n`));
    assert.equal(got[2], 'three');
    assert.equal(got[3], `${'x'.repeat(MAX_LINE_CHARS)}…`);
  });

  test('a re-attached stream repeats nothing it already gave and loses nothing after it', async () => {
    // A runtime whose log stream ends twice (a container stopped): each attach sends its tail.
    const log = ['a', 'b', 'c'];
    const attaches: LogOptions[] = [];
    const ac = new AbortController();
    const runtime = {
      node: (_name: string) => ({
        logs: async (o: LogOptions, out: Writable) => {
          attaches.push(o);
          const tail = o.tail === null ? log : log.slice(-o.tail);
          out.write(`${tail.join('\n')}\n`);
          if (attaches.length === 1) log.push('d', 'e');
          else if (attaches.length === 2) log.push('f');
          else ac.abort();
        },
      }),
    } as unknown as Runtime;
    const kept = new Ring<string>(100);
    const handed: string[][] = [];
    await followLog({
      runtime: () => runtime,
      node: 'validator-0',
      kept,
      tail: 2,
      signal: ac.signal,
      onLines: (lines) => {
        handed.push(lines);
        kept.push(...lines);
      },
    });
    assert.deepEqual(
      attaches.map((o) => o.tail),
      [2, 100, 100],
    );
    assert.deepEqual(handed, [['b', 'c'], ['d', 'e'], ['f']]);
    assert.ok(attaches.every((o) => o.follow));
  });

  test('where a re-attach picks up: after the last line kept, or all of it once the tail is complete', () => {
    assert.deepEqual(freshAfterResume(['a', 'b', 'c'], 'b', false), ['c']);
    assert.deepEqual(freshAfterResume(['b', 'a', 'b'], 'b', false), [], 'the last occurrence');
    assert.equal(freshAfterResume(['x', 'y'], 'b', false), null, 'the kept line may still come');
    assert.deepEqual(freshAfterResume(['x', 'y'], 'b', true), ['x', 'y'], 'the answer ended without it');
    assert.deepEqual(freshAfterResume(['x'], undefined, false), ['x'], 'nothing kept yet');
  });
});

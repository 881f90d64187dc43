/**
 * A bounded property-based fuzz of every RPC route, through a real HTTP server on 127.0.0.1
 * (Node's own parser in the loop) in front of a node with real state: blocks, transfers,
 * delegations, an unbonding entry, snapshots. At least 10,000 requests per run.
 *
 * Properties: every request is answered (nothing hangs, nothing is dropped), never with a 5xx;
 * every error body is exactly {"detail": string} with no stack trace or file path; the node
 * still answers /status afterwards; the heap after a forced GC stays within 16 MiB of where it
 * was before. A failure prints fast-check's seed and path: replay with FUZZ_SEED=<seed>
 * (and FUZZ_PATH=<path> to go straight to the shrunk case).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { coins, txToJson } from '../../../src/chain/index.js';
import { key, tx } from '../../fixtures.js';
import { type Harness, makeHarness } from '../../support/harness.js';
import { exchange, type RawResponse } from '../../support/rawHttp.js';
import {
  describeRequest,
  type FuzzRequest,
  fuzzRequest,
  mutated,
  requestBytes,
  txSendRequest,
  type World,
} from './rpcFuzzRequests.js';

const REQUESTS = 10_000;
/** Requests in flight at once: each property run sends one batch. */
const BATCH = 8;
const HEAP_BOUND = 16 * 1024 * 1024;
const SENDERS = Array.from({ length: 40 }, (_, i) => `fuzz-${i}`);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What no answer may contain: a stack frame, a source file, a path of this machine. */
const LEAK = /\bat [^\s]+ \(|\.(?:js|ts|mjs|cjs):\d+|node_modules|node:internal|file:\/\/|\/tmp\/|\/home\//;

function problemWith(res: RawResponse, head: boolean, cwd: string): string | null {
  if (res.status >= 500) return `answered ${res.status}`;
  const text = res.body.toString('utf8');
  if (LEAK.test(text) || text.includes(cwd)) return `the body leaks internals: ${text.slice(0, 300)}`;
  for (const [name, values] of res.headers)
    for (const v of values)
      if (v.includes(cwd) || /node:internal|\.(?:js|ts):\d+:\d+/.test(v))
        return `header ${name} leaks internals: ${v}`;
  const type = res.headers.get('content-type')?.[0] ?? '';
  if (res.status >= 400 && !head) {
    if (!type.startsWith('application/json'))
      return `error ${res.status} with Content-Type ${JSON.stringify(type)}`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `error ${res.status} whose body is not JSON: ${text.slice(0, 200)}`;
    }
    const keys = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
    if (keys.length !== 1 || keys[0] !== 'detail' || typeof (body as { detail: unknown }).detail !== 'string')
      return `error ${res.status} whose body is not {"detail": string}: ${text.slice(0, 200)}`;
  } else if (type.startsWith('application/json') && !head) {
    try {
      JSON.parse(text);
    } catch {
      return `answer ${res.status} claims JSON but is not: ${text.slice(0, 200)}`;
    }
  }
  return null;
}

/** A node with some history: transfers, a delegation above 2^53, an unbonding entry, snapshots. */
async function nodeWithState(): Promise<{ h: Harness; world: World }> {
  const h = await makeHarness(
    {
      validators: ['val-0'],
      accounts: {
        alice: coins(1_000_000),
        bob: coins(1_000),
        carol: 10n ** 40n,
        ...Object.fromEntries(SENDERS.map((l) => [l, coins(1_000)])),
      },
      params: { epoch_length: 4, snapshot_interval: 2 },
    },
    {},
    true,
    // A stalled request is answered 408 after this (30 s by default): short, to keep the run short.
    { requestTimeoutMs: 2_000 },
  );
  const val = key('val-0');
  const hashes: string[] = [];
  const submit = async (t: ReturnType<typeof tx>) => {
    const res = await h.request('POST', '/tx/send', txToJson(t));
    const body = res.json() as { tx_hash: string; status: string };
    assert.equal(body.status, 'received', JSON.stringify(body));
    hashes.push(body.tx_hash);
  };
  await submit(tx(h.service.state, 'alice', 'TRANSFER', { to: key('bob').account, amount: coins(3) }));
  await submit(tx(h.service.state, 'carol', 'DELEGATE', { to: val.validator, amount: 10n ** 19n + 7n }));
  await h.produce();
  await submit(tx(h.service.state, 'carol', 'UNDELEGATE', { to: val.validator, amount: 5n }));
  for (let i = 0; i < 5; i++) await h.produce();

  const s = h.service.state;
  const next = (label: string) => s.accounts.get(key(label).account)?.nonce ?? 0;
  const txs = [
    // One transfer from each of many senders with nothing pending: a mutated copy passes the
    // nonce and balance checks and meets the signature check (until the valid one is admitted).
    ...SENDERS.map((l) => tx(s, l, 'TRANSFER', { to: key('bob').account, amount: 1n, payload: { memo: l } })),
    ...[0, 1, 2].map((i) =>
      tx(s, 'alice', 'TRANSFER', {
        to: key('bob').account,
        amount: 1n,
        nonce: next('alice') + i,
        payload: { memo: 'hi' },
      }),
    ),
    tx(s, 'bob', 'TRANSFER', { to: key('alice').account, amount: 2n }),
    tx(s, 'carol', 'DELEGATE', { to: val.validator, amount: coins(1) }),
    tx(s, 'carol', 'UNDELEGATE', { to: val.validator, amount: 1n, nonce: next('carol') + 1 }),
    tx(s, 'alice', 'STAKE', {
      amount: coins(200),
      nonce: next('alice') + 3,
      payload: { name: 'fuzz', commissionPpm: 50_000, rewardAddress: key('alice').account },
    }),
    tx(s, 'val-0', 'UPDATE_VALIDATOR', {
      payload: { name: 'v', commissionPpm: 1, rewardAddress: key('bob').account },
    }),
    tx(s, 'val-0', 'UNJAIL', { nonce: next('val-0') + 1 }),
    tx(s, 'val-0', 'UNSTAKE', { amount: 1n, nonce: next('val-0') + 2 }),
    tx(s, 'alice', 'SUBMIT_RESULT', {
      nonce: next('alice') + 4,
      payload: { taskId: '123e4567-e89b-12d3-a456-426614174000', resultHash: 'ab'.repeat(32) },
    }),
  ].map((t) => txToJson(t) as unknown as Record<string, unknown>);
  const snapshots = (await h.request('GET', '/snapshots')).json() as {
    snapshots: { height: bigint | number }[];
  };
  const world: World = {
    heights: Array.from({ length: s.height + 2 }, (_, i) => String(i)),
    addresses: [...['alice', 'bob', 'carol', 'val-0'].map((l) => key(l).account), val.validator],
    txHashes: hashes,
    snapshotHeights: snapshots.snapshots.map((x) => String(x.height)),
    txs,
  };
  assert.ok(world.snapshotHeights.length > 0, 'the node has snapshots');
  return { h, world };
}

describe('RPC fuzz', () => {
  let h: Harness;
  let world: World;
  let url: string;
  before(async () => {
    ({ h, world } = await nodeWithState());
    url = await h.listen();
  });
  after(() => h.close());

  it('a mutated transaction is a copy: one constant drawn twice makes no cycle and stays as it was', () => {
    // fast-check gives every draw of the constant {} the same instance; set at `payload` and at
    // `payload.x`, it was once the payload inside itself (JSON.stringify threw in the generator).
    const constant = {};
    const obj = mutated(
      world.txs[0],
      [
        ['payload', { set: constant }],
        ['payload.x', { set: constant }],
      ],
      world,
    );
    assert.equal(JSON.stringify(obj.payload), '{"x":{}}');
    assert.deepEqual(constant, {}, 'the constant itself is untouched');
  });

  it(`${REQUESTS} random requests over a real socket: answered, no 5xx, errors {"detail"}, no leak`, {
    timeout: 300_000,
  }, async (t) => {
    const cwd = process.cwd();
    const seed =
      process.env.FUZZ_SEED === undefined
        ? Date.now() ^ (Math.random() * 2 ** 31)
        : Number(process.env.FUZZ_SEED);
    // One request in three goes straight at POST /tx/send with a JSON body.
    const request = fc.oneof({ weight: 2, arbitrary: fuzzRequest(world) }, txSendRequest(world));
    let sent = 0;
    const statuses = new Map<number, number>();
    const send = async (r: FuzzRequest): Promise<string | null> => {
      const head = r.method === 'HEAD';
      const x = await exchange(url, requestBytes(r), head);
      sent++;
      if (!x.answered) return x.why;
      statuses.set(x.response.status, (statuses.get(x.response.status) ?? 0) + 1);
      return problemWith(x.response, head, cwd);
    };

    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    // fc.check rather than fc.assert: its report would print whole requests (megabytes).
    const result = await fc.check(
      fc.asyncProperty(fc.array(request, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const problems = await Promise.all(batch.map(send));
        const i = problems.findIndex((p) => p !== null);
        if (i >= 0) throw new Error(`${problems[i]}\n--- request:\n${describeRequest(batch[i]!)}`);
        // The node's own errors (500s) are logged: none may appear. The log is cleared so that
        // the harness's in-memory logger does not count against the heap bound.
        const failed = h.logger.lines.filter((l) => l.level === 'error');
        h.logger.lines.length = 0;
        if (failed.length > 0) throw new Error(`the node logged an error: ${JSON.stringify(failed[0])}`);
      }),
      {
        numRuns: Math.ceil(REQUESTS / BATCH),
        seed,
        ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
        // Shrinking re-sends batches many times; on by request (FUZZ_SHRINK=1).
        endOnFailure: process.env.FUZZ_SHRINK === undefined,
      },
    );
    if (result.failed)
      assert.fail(
        `fuzz failed after ${result.numRuns} runs (replay: FUZZ_SEED=${result.seed} FUZZ_PATH=${result.counterexamplePath}):\n${(result.errorInstance as Error | undefined)?.message ?? String(result.errorInstance)}`,
      );
    const seconds = (performance.now() - started) / 1000;

    const status = await exchange(url, Buffer.from('GET /status HTTP/1.1\r\nHost: x\r\n\r\n'), false);
    assert.ok(status.answered && status.response.status === 200, 'the node still answers /status');
    h.logger.lines.length = 0;
    gc();
    const grown = process.memoryUsage().heapUsed - heapBefore;
    t.diagnostic(
      `fuzz: ${sent} requests in ${seconds.toFixed(1)} s (seed ${seed}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; heap ${(grown / 2 ** 20).toFixed(1)} MiB after GC`,
    );
    assert.ok(sent >= REQUESTS, `${sent} requests sent`);
    assert.ok(grown < HEAP_BOUND, `the heap grew by ${grown} bytes (bound ${HEAP_BOUND})`);
  });
});

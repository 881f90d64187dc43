/**
 * Every answer the RPC client reads has a bound in bytes suited to its endpoint (ANSWER_BOUNDS),
 * and an answer past it is an RpcAnswerTooLargeError naming the URL and the bound, the rest left
 * unread (issue 39: a server streaming `/status` took `devnet up --fork` to 2.4 GB and a crash).
 * Against a server of this test on 127.0.0.1 that answers whatever size it is told to.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { TxJson } from '../../../src/chain/index.js';
import { DEFAULT_MAX_ANSWER_BYTES, JsonHttpClient } from '../../../src/client/jsonHttp.js';
import { ANSWER_BOUNDS, RpcAnswerTooLargeError, RpcClient } from '../../../src/client/rpcClient.js';
import type { RouteName } from '../../../src/rpc/routes.js';

const HASH = 'ab'.repeat(32);
const ADDRESS = 'coin1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqcwzwfw';

/** Each route's call through the client's own method; evidence has none (a path read with get). */
const CALLS: Record<RouteName, (c: RpcClient) => Promise<unknown>> = {
  status: (c) => c.status(),
  block: (c) => c.block(1),
  commit: (c) => c.commit(1),
  balance: (c) => c.balance(ADDRESS),
  validators: (c) => c.validators(),
  delegations: (c) => c.delegations(ADDRESS),
  rewards: (c) => c.rewards(ADDRESS),
  unbonding: (c) => c.unbonding(ADDRESS),
  supply: (c) => c.supply(),
  netProbe: (c) => c.netProbe('12D3KooW', 0),
  snapshots: (c) => c.snapshots(),
  snapshot: (c) => c.snapshot(1),
  snapshotContent: (c) => c.snapshotContent(1, 0),
  evidence: (c) => c.get('/evidence'),
  metrics: (c) => c.metrics(),
  // The server answers before it reads a body: any transaction's JSON will do.
  sendTx: (c) => c.sendTx({ tx_type: 'TRANSFER' } as unknown as TxJson),
  receipt: (c) => c.receipt(HASH),
  sendTxs: (c) => c.sendTxs([]),
  upgrades: (c) => c.upgrades(),
};

/** What the server does with the next requests. */
type Answer =
  | { readonly kind: 'declared'; readonly length: number }
  | { readonly kind: 'streamed'; readonly limit: number }
  | { readonly kind: 'exact'; readonly length: number };

describe('the RPC client reads each answer up to its endpoint’s bound', () => {
  let server: Server;
  let url = '';
  let answer: Answer = { kind: 'declared', length: 0 };
  /** Bytes the server wrote of the last streamed answer before the client hung up. */
  let streamed = 0;

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.on('error', () => undefined);
      const a = answer;
      if (a.kind === 'declared') {
        // Only the header: a client that trusts it waits for a body that never comes.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': a.length });
        res.flushHeaders();
        return;
      }
      if (a.kind === 'exact') {
        // Valid JSON of exactly `length` bytes: {"pad":"aaa…"}.
        const body = `{"pad":"${'a'.repeat(a.length - 10)}"}`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
        return;
      }
      // No length: chunks as fast as the client reads them, up to `limit` bytes.
      streamed = 0;
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const more = () => {
        while (streamed < a.limit && !res.destroyed) {
          streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.write('{"pad":"');
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const tooLarge = (maxBytes: number, path: RegExp) => (e: unknown) => {
    assert.ok(e instanceof RpcAnswerTooLargeError, String(e));
    assert.equal(e.maxBytes, maxBytes);
    assert.match(e.url, path);
    assert.match(e.message, new RegExp(`^${url}.*: the answer is longer than ${maxBytes} bytes`));
    return true;
  };

  it('every route has a bound, and its method refuses an answer that says it is longer, at once', async () => {
    const client = new RpcClient(url, 5_000);
    for (const [route, call] of Object.entries(CALLS) as [RouteName, (c: RpcClient) => Promise<unknown>][]) {
      const bound = ANSWER_BOUNDS[route];
      assert.ok(bound >= 1024 * 1024, `${route}: ${bound}`);
      answer = { kind: 'declared', length: bound + 1 };
      const started = Date.now();
      await assert.rejects(call(client), tooLarge(bound, /^http:\/\/127\.0\.0\.1:\d+\//), route);
      assert.ok(Date.now() - started < 2_000, `${route}: refused without waiting for the body`);
    }
    assert.equal(ANSWER_BOUNDS.evidence, DEFAULT_MAX_ANSWER_BYTES);
  });

  it('an endless /status is refused after its bound, the rest never read', async () => {
    answer = { kind: 'streamed', limit: 256 * 1024 * 1024 };
    await assert.rejects(new RpcClient(url, 30_000).status(), tooLarge(ANSWER_BOUNDS.status, /\/status$/));
    // The server stops once the client's socket is gone: what it wrote is the bound and the
    // buffers of a loopback connection, not the 256 MiB it had to give.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(streamed < 32 * 1024 * 1024, `${streamed} bytes written`);
  });

  it('an answer of exactly the bound is read; a path without a method of its own gets the default bound', async () => {
    answer = { kind: 'exact', length: ANSWER_BOUNDS.status };
    const read = (await new RpcClient(url, 5_000).status()) as unknown as { pad: string };
    assert.equal(read.pad.length, ANSWER_BOUNDS.status - 10);
    answer = { kind: 'declared', length: DEFAULT_MAX_ANSWER_BYTES + 1 };
    await assert.rejects(
      new JsonHttpClient(url, 5_000).get('/anything'),
      tooLarge(DEFAULT_MAX_ANSWER_BYTES, /\/anything$/),
    );
  });
});

/**
 * GET /snapshots/{height}/content answers one file at a time (docs/PROTOCOL.md, "Snapshot
 * content"): while one answer is being prepared, a second is told 503 with Retry-After and a
 * detail, and once the first is sent the next is served again. The node's RpcClient (a fork's
 * source fetch) asks again as told, within its bound. The chain service is real; the one thing
 * held is the moment its snapshot file read returns (a gate), so that two requests overlap for
 * certain.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { RpcClient, RpcError } from '../../../src/client/rpcClient.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { createRpcApp } from '../../../src/rpc/app.js';
import type { RpcBackend } from '../../../src/rpc/backend.js';
import { type Harness, injectInto, makeHarness } from '../../support/harness.js';

/** The node's RPC app whose first snapshot file read waits until `open()`. */
function gatedApp(h: Harness) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const held = { reads: 0 };
  const service = h.service;
  const backend = Object.create(service) as RpcBackend;
  backend.snapshotFile = async (height) => {
    held.reads++;
    if (held.reads === 1) await gate;
    return service.snapshotFile(height);
  };
  return { handler: createRpcApp(backend, createMetrics(), memoryLogger()).callback(), open, held };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('snapshot content, one answer at a time', () => {
  let h: Harness;
  const servers: Server[] = [];
  before(async () => {
    h = await makeHarness();
    while (h.service.state.height < 10) await h.produce();
  });
  after(async () => {
    for (const s of servers) s.close();
    await h.close();
  });

  /** The gated app on a real port; `busy` counts the 503 answers sent. */
  const listen = async () => {
    const g = gatedApp(h);
    const busy = { answers: 0 };
    const server = createServer((req, res) => {
      res.on('finish', () => {
        if (res.statusCode === 503) busy.answers++;
      });
      g.handler(req, res);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { ...g, busy, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };

  it('a second request while the first is in progress is a 503 with Retry-After; then served again', async () => {
    const { handler, open, held } = gatedApp(h);
    const first = injectInto(handler, 'GET', '/snapshots/10/content');
    while (held.reads === 0) await settle();
    const second = await injectInto(handler, 'GET', '/snapshots/10/content');
    assert.equal(second.status, 503);
    assert.equal(second.headers['retry-after'], '1');
    assert.match(
      String((second.json() as { detail: string }).detail),
      /^Busy: another snapshot content answer/,
    );
    open();
    assert.equal((await first).status, 200);
    const third = await injectInto(handler, 'GET', '/snapshots/10/content');
    assert.equal(third.status, 200);
    assert.equal(third.headers['x-snapshot-height'], '10');
  });

  it('the RpcClient told Busy asks again after Retry-After and gets the file once the first is sent', async () => {
    const { open, held, busy, url } = await listen();
    const first = new RpcClient(url, 10_000).snapshotContent(10);
    while (held.reads === 0) await settle();
    const second = new RpcClient(url, 10_000).snapshotContent(10);
    // Opened only once the second client was told Busy at least once: its answer is a retry's.
    while (busy.answers === 0) await settle();
    open();
    const [a, b] = await Promise.all([first, second]);
    assert.ok(busy.answers >= 1);
    assert.deepEqual(Buffer.from(b.file), Buffer.from(a.file));
    assert.equal(b.hash, a.hash);
    assert.equal(b.hash, (await h.service.snapshotFile(10))!.record.hash);
  });

  it('past its bound the client gives up with the 503 and its detail', async () => {
    const { open, held, busy, url } = await listen();
    const first = new RpcClient(url, 10_000).snapshotContent(10);
    while (held.reads === 0) await settle();
    // Within 1.5 s: one wait of Retry-After 1 s fits, the next does not.
    const e = await new RpcClient(url, 10_000).snapshotContent(10, 1_500).catch((x: unknown) => x);
    open();
    await first;
    assert.ok(e instanceof RpcError, String(e));
    assert.equal(e.status, 503);
    assert.match(e.detail, /^Busy: /);
    assert.equal(busy.answers, 2, 'asked twice: once, and again after Retry-After');
  });
});

/**
 * GET /snapshots/{height}/content answers one file at a time (docs/PROTOCOL.md, "Snapshot
 * content"): while one answer is being prepared, a second is told 503 with Retry-After and a
 * detail, and once the first is sent the next is served again. The chain service is real; the
 * one thing held is the moment its snapshot file read returns (a gate), so that the two requests
 * overlap for certain.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { createRpcApp } from '../../../src/rpc/app.js';
import type { RpcBackend } from '../../../src/rpc/backend.js';
import { memoryLogger } from '../../../src/util/logger.js';
import { type Harness, injectInto, makeHarness } from '../../support/harness.js';

describe('snapshot content, one answer at a time', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness();
    while (h.service.state.height < 10) await h.produce();
  });
  after(() => h.close());

  it('a second request while the first is in progress is a 503 with Retry-After; then served again', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let reads = 0;
    const service = h.service;
    const backend = Object.create(service) as RpcBackend;
    backend.snapshotFile = async (height) => {
      reads++;
      if (reads === 1) await gate;
      return service.snapshotFile(height);
    };
    const handler = createRpcApp(backend, createMetrics(), memoryLogger()).callback();
    const first = injectInto(handler, 'GET', '/snapshots/10/content');
    while (reads === 0) await new Promise((r) => setImmediate(r));
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
});

/**
 * The version a node reports (status's bracket): its GET /upgrades `node_version`, and "unknown"
 * from a node that has no such endpoint (this repository's builds before upgrade plans answer an
 * unknown path 404, as the HTTP server here does) or does not answer. The real builds' answers are
 * in processUpgrade.test.ts and dockerVersion.test.ts (the older build's 0.1.0 and this checkout's).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { reportedVersion, UNKNOWN_NODE_VERSION } from '../../src/versions/nodeVersion.js';

async function listening(
  answer: (path: string) => [number, string],
): Promise<{ server: Server; rpc: string }> {
  const server = createServer((req, res) => {
    const [status, body] = answer(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, rpc: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (s: Server) => new Promise<void>((r) => s.close(() => r()));

describe('the version a node reports', () => {
  const servers: Server[] = [];
  after(async () => {
    for (const s of servers) if (s.listening) await close(s);
  });

  test('its node_version when it answers GET /upgrades', async () => {
    const { server, rpc } = await listening((p) =>
      p === '/upgrades' ? [200, '{"node_version":"0.1.0"}'] : [404, '{"error":"not found"}'],
    );
    servers.push(server);
    assert.equal(await reportedVersion(rpc), '0.1.0');
  });

  test('unknown from a node without the endpoint (404), with no node_version in it, or not answering', async () => {
    const without = await listening(() => [404, '{"error":"not found"}']);
    const odd = await listening(() => [200, '{"node_version":7}']);
    const gone = await listening(() => [200, '{}']);
    servers.push(without.server, odd.server, gone.server);
    await close(gone.server);
    assert.equal(await reportedVersion(without.rpc), UNKNOWN_NODE_VERSION);
    assert.equal(await reportedVersion(odd.rpc), UNKNOWN_NODE_VERSION);
    assert.equal(await reportedVersion(gone.rpc), UNKNOWN_NODE_VERSION);
  });
});

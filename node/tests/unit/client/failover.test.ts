/**
 * failoverRpc (client/failover.ts): a call goes to the node that answered last and on to the next
 * when a node gives no answer (a refused connection, a name that does not resolve); an HTTP error
 * is that node's answer and is not retried elsewhere. Real HTTP servers on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { failoverRpc } from '../../../src/client/failover.js';
import { RpcError, RpcUnreachableError } from '../../../src/client/index.js';

const servers: Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** A server answering GET /status with `height`, or `status` with a detail when given. */
async function node(height: number, status = 200): Promise<{ url: string; asked: () => number }> {
  let asked = 0;
  const s = createServer((_req, res) => {
    asked++;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { height } : { detail: 'Node not initialized' }));
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, asked: () => asked };
}

/** A port nobody listens on (a server opened and closed). */
async function closedUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}`;
}

describe('failoverRpc', () => {
  it('goes on to the next node when one gives no answer, and stays with the one that answered', async () => {
    const b = await node(7);
    const first = await closedUrl();
    const moves: [string, string, string][] = [];
    const rpc = failoverRpc([first, 'http://no-such-node.invalid:1', b.url], 2_000, (to, from, why) =>
      moves.push([to, from, why]),
    );
    assert.equal((await rpc.status()).height, 7);
    assert.equal((await rpc.status()).height, 7);
    assert.equal(b.asked(), 2, 'the second call went straight to the node that answered');
    assert.equal(moves.length, 1, 'one move, told once');
    assert.deepEqual(moves[0]!.slice(0, 2), [b.url, first]);
    assert.match(moves[0]![2], /no-such-node|ENOTFOUND|EAI_AGAIN|unreachable|not resolve/i);
  });

  it("returns a node's HTTP error as it is, without asking another", async () => {
    const busy = await node(0, 503);
    const other = await node(9);
    const rpc = failoverRpc([busy.url, other.url], 2_000);
    await assert.rejects(rpc.status(), (e: unknown) => e instanceof RpcError && e.status === 503);
    assert.equal(other.asked(), 0);
  });

  it('fails with the last node unreachable when none answers', async () => {
    const rpc = failoverRpc([await closedUrl(), await closedUrl()], 2_000);
    await assert.rejects(rpc.status(), (e: unknown) => e instanceof RpcUnreachableError);
  });
});

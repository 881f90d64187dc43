/**
 * The one JSON client over node:http (client/jsonHttp.ts) and a kept-alive connection that the
 * server closes as the next request is written: the request is sent again on a new connection
 * (it was never read), where it used to fail as `ECONNRESET` (cluster.test on a loaded machine).
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { JsonHttpClient, RpcUnreachableError } from '../../../src/client/jsonHttp.js';

class Client extends JsonHttpClient {
  read(path: string): Promise<{ n: number }> {
    return this.get(path);
  }
}

/**
 * An HTTP server by hand: each connection answers its first request and keeps the connection;
 * a second request on it is answered by a reset (the server closed it as the request came), or,
 * with `resetFresh`, every request of every connection is.
 */
function racingServer(o: { resetFresh: boolean }): { server: Server; connections: () => number } {
  let connections = 0;
  const server = createServer((socket: Socket) => {
    connections++;
    let requests = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        requests++;
        if (o.resetFresh || requests > 1) {
          socket.resetAndDestroy();
          return;
        }
        const body = JSON.stringify({ n: connections });
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
        );
      }
    });
    socket.on('error', () => undefined);
  });
  return { server, connections: () => connections };
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

describe('the JSON client on a kept-alive connection', () => {
  const racing = racingServer({ resetFresh: false });
  const resetting = racingServer({ resetFresh: true });
  let racingUrl = '';
  let resettingUrl = '';
  before(async () => {
    racingUrl = await listening(racing.server);
    resettingUrl = await listening(resetting.server);
  });
  after(() => {
    racing.server.close();
    resetting.server.close();
  });

  it('sends a request reset on a reused connection once more, on a new one', async () => {
    const client = new Client(racingUrl, 5000);
    assert.deepEqual(await client.read('/a'), { n: 1 });
    // Written on the kept connection, which the server resets: sent again on a second connection.
    assert.deepEqual(await client.read('/b'), { n: 2 });
    assert.equal(racing.connections(), 2);
  });

  it('still fails a request reset on a new connection', async () => {
    const client = new Client(resettingUrl, 5000);
    await assert.rejects(
      client.read('/a'),
      (e) => e instanceof RpcUnreachableError && (e.cause as NodeJS.ErrnoException).code === 'ECONNRESET',
    );
    assert.equal(resetting.connections(), 1, 'not sent again');
  });
});

/**
 * The request/response exchange under block sync: one deadline covers the whole exchange, so a
 * peer that takes the request and never answers cannot hold the caller (block sync runs one
 * catch-up at a time, and a request that hung stalled a node's sync for good).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerIdOf, peerKeyFromSeed } from '../../../src/p2p/peerKey.js';

const HANG = '/test/hang/1.0.0';
const ECHO = '/test/echo/1.0.0';

describe('P2PNetwork.request', () => {
  let client: P2PNetwork;
  let server: P2PNetwork;
  let serverId: string;
  let release: () => void = () => undefined;

  before(async () => {
    const base = await freeBasePort((b) => [b, b + 1]);
    const keys = await Promise.all(
      [0, 1].map((i) => peerKeyFromSeed(new TextEncoder().encode(`request-${i}`))),
    );
    serverId = peerIdOf(keys[1]!);
    const logger = createLogger({ level: 'error' });
    server = await P2PNetwork.start({
      privateKey: keys[1]!,
      listenHost: '127.0.0.1',
      listenPort: base + 1,
      bootstrap: [],
      logger,
    });
    const stuck = new Promise<Uint8Array>((resolve) => {
      release = () => resolve(new Uint8Array());
    });
    await server.serve(HANG, () => stuck);
    await server.serve(ECHO, async (request) => request);
    client = await P2PNetwork.start({
      privateKey: keys[0]!,
      listenHost: '127.0.0.1',
      listenPort: base,
      bootstrap: [`/ip4/127.0.0.1/tcp/${base + 1}/p2p/${serverId}`],
      logger,
    });
    await waitFor('the client connected to the server', 15_000, async () =>
      client.connectedPeers().includes(serverId) ? true : null,
    );
  });
  after(async () => {
    release();
    await Promise.all([client?.stop(), server?.stop()]);
  });

  it('a peer that never answers fails the request at its deadline, and the connection still serves the next one', {
    timeout: 15_000,
  }, async () => {
    await assert.rejects(client.request(serverId, HANG, new Uint8Array([1]), 400), /no answer within 400 ms/);
    const answer = await client.request(serverId, ECHO, new TextEncoder().encode('ping'), 5_000);
    assert.equal(new TextDecoder().decode(answer), 'ping');
  });
});

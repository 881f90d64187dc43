/**
 * <home>/net_conditions.json and POST /net/probe are fault injection: a node started with
 * --fault-injection shapes its p2p links as the file says (followed while it runs: a bad file is
 * refused naming its field and the conditions stay) and probes a link through them; without the
 * flag the links are as they are, the file is noted once and ignored, and the probe is a 404.
 * A real node (startNode, its RPC on a port) and a real peer (P2PNetwork serving the probe).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLogger, memoryLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '../../../src/client/index.js';
import { formatNetConditions, NET_CONDITIONS_FILE } from '../../../src/faults/netConditionsFile.js';
import { defaultConfig } from '../../../src/main/config.js';
import { startNode } from '../../../src/main/node.js';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerIdOf, peerKeyFromSeed } from '../../../src/p2p/peerKey.js';
import { serveProbe } from '../../../src/p2p/probe.js';
import { networkPorts } from '../../../src/testnet/ports.js';
import { cleanup, initHome } from '../../support/processes.js';

after(cleanup);

const latency = (ms: number) =>
  formatNetConditions({ links: [{ peer: '*', direction: 'out', latencyMs: ms }], deafTo: [] });

/** A node (with or without the flag) with one peer that serves the probe, its file written first. */
async function nodeWithPeer(faultInjection: boolean, file: string | null) {
  const base = await freeBasePort((p) => networkPorts(p, 2));
  const key = await peerKeyFromSeed(new TextEncoder().encode(`net-conditions-${faultInjection}`));
  const peer = await P2PNetwork.start({
    privateKey: key,
    listenHost: '127.0.0.1',
    listenPort: base + 1,
    bootstrap: [],
    logger: createLogger({ level: 'error' }),
  });
  await serveProbe(peer);
  const home = await initHome();
  if (file !== null) await writeFile(join(home, NET_CONDITIONS_FILE), file);
  const logger = memoryLogger();
  const node = await startNode(
    {
      ...defaultConfig(home),
      port: 0,
      p2pPort: base,
      bootstrap: [`/ip4/127.0.0.1/tcp/${base + 1}/p2p/${peerIdOf(key)}`],
      keyPath: null,
      faultInjection,
    },
    logger,
  ).catch(async (e) => {
    await peer.stop();
    throw e;
  });
  const rpc = new RpcClient(`http://127.0.0.1:${node.port}`);
  await waitFor('the node connected to its peer', 15_000, async () =>
    node.network!.connectedPeers().includes(peer.peerId) ? true : null,
  );
  return {
    home,
    rpc,
    peerId: peer.peerId,
    logged: (text: string) => logger.lines.filter((l) => String(l.msg).includes(text)),
    stop: async () => {
      await node.stop();
      await peer.stop();
    },
  };
}

describe('net_conditions.json and POST /net/probe are fault injection', { timeout: 90_000 }, () => {
  it('with --fault-injection the links take the file as it changes; a bad file is refused naming its field, the conditions stay', async () => {
    const n = await nodeWithPeer(true, latency(80));
    try {
      const first = await n.rpc.netProbe(n.peerId);
      assert.ok(first.rtt_ms >= 80 && first.rtt_ms < 80 + 500, `round trip ${first.rtt_ms} ms`);
      assert.equal(first.up_bps, null);
      await writeFile(
        join(n.home, NET_CONDITIONS_FILE),
        '{"version":1,"links":[{"peer":"*","direction":"up"}]}',
      );
      await waitFor('the bad file refused', 10_000, async () =>
        n.logged('refused').length > 0 ? true : null,
      );
      assert.match(String(n.logged('refused')[0]!.msg), /links\[0\]\.direction must be "out" or "in"/);
      assert.ok((await n.rpc.netProbe(n.peerId)).rtt_ms >= 80, 'the conditions in force stayed');
      await writeFile(join(n.home, NET_CONDITIONS_FILE), latency(0));
      await waitFor('the link cleared', 10_000, async () =>
        (await n.rpc.netProbe(n.peerId)).rtt_ms < 60 ? true : null,
      );
      const moved = await n.rpc.netProbe(n.peerId, 100_000);
      assert.ok(moved.up_bps! > 0 && moved.down_bps! > 0, JSON.stringify(moved));
    } finally {
      await n.stop();
    }
  });

  it('POST /net/probe refuses a malformed body naming the field, and a peer not connected with 409', async () => {
    const n = await nodeWithPeer(true, null);
    try {
      const post = (body: string) =>
        fetch(`${n.rpc.baseUrl}/net/probe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
      for (const [body, detail] of [
        ['{"peer": 3}', /peer must be string/],
        [`{"peer": "${n.peerId}", "bytes": 1.5}`, /bytes must be integer/],
        [`{"peer": "${n.peerId}", "bytes": 99999999}`, /bytes must be <= 4194288/],
        [`{"peer": "${n.peerId}", "size": 1}`, /size is not a field \(peer, bytes\)/],
        ['{"peer":', /Invalid probe request/],
      ] as const) {
        const r = await post(body);
        assert.equal(r.status, 400, body);
        assert.match(((await r.json()) as { detail: string }).detail, detail);
      }
      const stranger = await post('{"peer": "12D3KooWNotConnected"}');
      assert.equal(stranger.status, 409);
      assert.match(
        ((await stranger.json()) as { detail: string }).detail,
        /not connected to peer 12D3KooWNotConnected/,
      );
    } finally {
      await n.stop();
    }
  });

  it('without it the links are as they are, the file is noted once and ignored, and the probe is a 404 saying why', async () => {
    const n = await nodeWithPeer(false, latency(5_000));
    try {
      assert.equal(n.logged('net_conditions.json is present but fault injection is off').length, 1);
      const r = await fetch(`${n.rpc.baseUrl}/net/probe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ peer: n.peerId }),
      });
      assert.equal(r.status, 404);
      assert.match(
        ((await r.json()) as { detail: string }).detail,
        /fault injection: the node runs without --fault-injection/,
      );
    } finally {
      await n.stop();
    }
  });
});

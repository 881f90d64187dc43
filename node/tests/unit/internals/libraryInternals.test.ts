/**
 * Pins every use of a library's internals (src/internals/libraryInternals.ts) to the library version it
 * was written against: a version other than the pinned one, or an internal field of another
 * shape, fails here with a message naming what to check, not later as a node that quietly stops
 * re-sending to joining peers, staggering its DHT refresh, or splitting a Byzantine publish.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { type GossipSub, gossipsub } from '@chainsafe/libp2p-gossipsub';
import { RPC } from '@chainsafe/libp2p-gossipsub/message';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import { kadDHT } from '@libp2p/kad-dht';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { createLibp2p } from 'libp2p';
import { splitPublisher } from '../../../src/faults/splitPublish.js';
import {
  dropReceivedFrom,
  forgetFanout,
  gossipFrames,
  halfWindowUpdates,
  hasOutboundStream,
  meshSize,
  PINNED_VERSIONS,
  setTableRefreshInterval,
} from '../../../src/internals/libraryInternals.js';
import { P2PNetwork } from '../../../src/p2p/network.js';
import { peerIdOf, peerKeyFromSeed } from '../../../src/p2p/peerKey.js';

/** The version of `name` as installed (the nearest node_modules up from this file). */
function installedVersion(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
    dir = dirname(dir);
  }
}

/** A gossipsub service of a libp2p node that is never started: its fields exist from construction. */
async function unstartedGossipsub(): Promise<GossipSub> {
  const node = await createLibp2p({
    start: false,
    transports: [tcp()],
    services: { identify: identify(), pubsub: gossipsub({ globalSignaturePolicy: 'StrictNoSign' }) },
  });
  return node.services.pubsub as unknown as GossipSub;
}

/** A logger that says nothing, for a yamux muxer made outside a libp2p node. */
function silentLogger() {
  const log = Object.assign(() => undefined, {
    enabled: false,
    trace: () => undefined,
    error: () => undefined,
  });
  return { forComponent: () => log };
}

interface Frame {
  readonly type: number;
  readonly flags: number;
  readonly length: number;
}

/**
 * Two yamux muxers joined back to back in memory, every frame each sends seen on the way (a
 * chunk of a muxer's source is one frame: its 12-byte header, then its data).
 */
function muxerPair(make: ReturnType<typeof yamux>) {
  const incoming: { source: AsyncIterable<{ byteLength: number }> }[] = [];
  const client = make({ logger: silentLogger() } as never).createStreamMuxer({ direction: 'outbound' });
  const server = make({ logger: silentLogger() } as never).createStreamMuxer({
    direction: 'inbound',
    onIncomingStream: (s) => incoming.push(s as never),
  });
  const fromClient: Frame[] = [];
  const fromServer: Frame[] = [];
  async function* seen(
    source: AsyncIterable<{ subarray(a: number, b: number): Uint8Array }>,
    frames: Frame[],
  ) {
    for await (const chunk of source) {
      const h = new DataView(chunk.subarray(0, 12).slice().buffer);
      frames.push({ type: h.getUint8(1), flags: h.getUint16(2), length: h.getUint32(8) });
      yield chunk as never;
    }
  }
  void Promise.resolve(server.sink(seen(client.source as never, fromClient) as never)).catch(() => undefined);
  void Promise.resolve(client.sink(seen(server.source as never, fromServer) as never)).catch(() => undefined);
  /** The window updates the server sent that only give credit (no flag: not an open, ack or close). */
  const credits = () => fromServer.filter((f) => f.type === 1 && f.flags === 0);
  const dataBytesFromClient = () => fromClient.filter((f) => f.type === 0).reduce((n, f) => n + f.length, 0);
  const close = () => {
    client.abort(new Error('test over'));
    server.abort(new Error('test over'));
  };
  return { client, incoming, credits, dataBytesFromClient, close };
}

/**
 * Sends `count` messages of `bytes` on a new stream of `pair`'s client and reads them all on the
 * server. `oneAtATime`: each is sent once the one before is read, as gossip's messages come.
 */
async function sendAndRead(
  pair: ReturnType<typeof muxerPair>,
  count: number,
  bytes: number,
  oneAtATime: boolean,
): Promise<void> {
  const stream = await pair.client.newStream();
  let read = 0;
  void stream.sink(
    (async function* () {
      for (let i = 0; i < count; i++) {
        yield new Uint8Array(bytes).fill(i % 251);
        if (oneAtATime)
          await waitFor(`message ${i} to be read`, 5_000, async () => read >= (i + 1) * bytes, { pollMs: 1 });
      }
    })(),
  );
  await waitFor('the server to see the stream', 5_000, async () => pair.incoming.length === 1);
  for await (const chunk of pair.incoming[0]!.source) {
    read += chunk.byteLength;
    if (read >= count * bytes) break;
  }
  assert.equal(read, count * bytes);
}

const WHAT_TO_CHECK =
  'src/internals/libraryInternals.ts reaches into its internals: check each use against the new version, then update PINNED_VERSIONS';

describe('library internals (src/internals/libraryInternals.ts)', () => {
  for (const [name, pinned] of Object.entries(PINNED_VERSIONS))
    it(`${name} is the version the internals were written against (${pinned})`, () => {
      const installed = installedVersion(name);
      assert.equal(installed, pinned, `${name} ${installed} is installed, not ${pinned}: ${WHAT_TO_CHECK}`);
    });

  it('gossipsub keeps its per-peer outbound streams, mesh and fanout in Maps keyed by peer id / topic', async () => {
    const pubsub = await unstartedGossipsub();
    for (const field of ['streamsOutbound', 'mesh', 'fanout'] as const)
      assert.ok(pubsub[field] instanceof Map, `gossipsub.${field} is no longer a Map: ${WHAT_TO_CHECK}`);
    assert.equal(hasOutboundStream(pubsub, 'nobody'), false);
    pubsub.mesh.set('t', new Set(['a', 'b']));
    assert.equal(meshSize(pubsub, 't'), 2);
    pubsub.fanout.set('t', new Set(['a']));
    forgetFanout(pubsub, 't');
    assert.equal(pubsub.fanout.has('t'), false);
  });

  it("dropReceivedFrom wraps gossipsub's handleReceivedRpc: a deaf peer's messages and IHAVE/IWANT/IDONTWANT go, the rest passes", async () => {
    const pubsub = await unstartedGossipsub();
    const inner = pubsub as unknown as { handleReceivedRpc(from: unknown, rpc: RPC): Promise<void> };
    assert.equal(
      typeof inner.handleReceivedRpc,
      'function',
      `gossipsub.handleReceivedRpc is gone: ${WHAT_TO_CHECK}`,
    );
    const seen: RPC[] = [];
    inner.handleReceivedRpc = async (_from, rpc) => void seen.push(rpc);
    dropReceivedFrom(pubsub, (peer) => peer === 'deaf');
    const rpc: RPC = {
      subscriptions: [{ topic: 't', subscribe: true }],
      messages: [{ topic: 't', data: new Uint8Array([1]) }],
      control: {
        ihave: [{ messageIDs: [] }],
        iwant: [{ messageIDs: [] }],
        graft: [{ topicID: 't' }],
        prune: [],
        idontwant: [],
      },
    };
    await inner.handleReceivedRpc({ toString: () => 'deaf' }, rpc);
    await inner.handleReceivedRpc({ toString: () => 'other' }, rpc);
    assert.deepEqual(seen[0], {
      ...rpc,
      messages: [],
      control: { ...rpc.control!, ihave: [], iwant: [], idontwant: [] },
    });
    assert.equal(seen[1], rpc, "another peer's RPC as it came");
  });

  it("a hand-written frame is gossipsub's own RPC of one unsigned message, pushed on the peer's stream", async () => {
    const pubsub = await unstartedGossipsub();
    const pushed: Uint8Array[] = [];
    // A stand-in for the peer's OutboundStream: only its push is used.
    pubsub.streamsOutbound.set('peer', { push: (b: Uint8Array) => pushed.push(b) } as never);
    gossipFrames(pubsub).pushFrame('peer', '/t/1.0.0', new Uint8Array([1, 2, 3]));
    gossipFrames(pubsub).pushFrame('nobody', '/t/1.0.0', new Uint8Array([4]));
    assert.equal(pushed.length, 1);
    const rpc = RPC.decode(pushed[0]!);
    assert.deepEqual(rpc.subscriptions, []);
    assert.equal(rpc.messages.length, 1);
    assert.equal(rpc.messages[0]!.topic, '/t/1.0.0');
    assert.deepEqual([...(rpc.messages[0]!.data ?? [])], [1, 2, 3]);
  });

  it("kad-dht's table refresher has a numeric refreshInterval", async () => {
    const node = await createLibp2p({
      start: false,
      transports: [tcp()],
      services: { identify: identify(), ping: ping(), dht: kadDHT({ clientMode: false }) },
    });
    assert.equal(setTableRefreshInterval(node.services.dht, 123_456), true, `kad-dht: ${WHAT_TO_CHECK}`);
    const dht = node.services.dht as unknown as { routingTableRefresh: { refreshInterval: number } };
    assert.equal(dht.routingTableRefresh.refreshInterval, 123_456);
  });

  describe("yamux's window updates, sent once half the window is read (halfWindowUpdates)", () => {
    it('500 gossip-sized messages, each read before the next is sent: one window update from the wrapped muxer, one per message from yamux alone', async () => {
      const alone = muxerPair(yamux());
      const wrapped = muxerPair(halfWindowUpdates(yamux()));
      try {
        await sendAndRead(alone, 500, 330, true);
        await sendAndRead(wrapped, 500, 330, true);
        // yamux alone credits every message it reads (were it to stop, halfWindowUpdates has no more use).
        assert.ok(alone.credits().length >= 450, `yamux alone sent ${alone.credits().length} window updates`);
        // 165,000 bytes read: the credit fell below half of the 256 KiB window once.
        assert.equal(wrapped.credits().length, 1, `the wrapped muxer sent ${wrapped.credits().length}`);
        assert.ok(wrapped.credits()[0]!.length >= 128 * 1024);
      } finally {
        alone.close();
        wrapped.close();
      }
    });

    it('a transfer 16 windows long goes through, credited as it is read', async () => {
      const pair = muxerPair(halfWindowUpdates(yamux()));
      try {
        const total = 16 * 256 * 1024;
        await sendAndRead(pair, total / 16_384, 16_384, false);
        const credited = pair.credits().reduce((n, f) => n + f.length, 0);
        assert.ok(credited >= total - 256 * 1024, `credit given ${credited} for ${total} bytes read`);
      } finally {
        pair.close();
      }
    });

    it('a reader that reads nothing still stops its sender at the window (flow control holds)', async () => {
      const pair = muxerPair(halfWindowUpdates(yamux()));
      try {
        const stream = await pair.client.newStream();
        void stream
          .sink(
            (async function* () {
              for (let i = 0; i < 64; i++) yield new Uint8Array(16_384);
            })(),
          )
          .catch(() => undefined);
        await waitFor(
          'the sender to fill the window',
          5_000,
          async () => pair.dataBytesFromClient() >= 256 * 1024,
        );
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(pair.dataBytesFromClient(), 256 * 1024, 'no byte beyond the 256 KiB window');
        assert.equal(pair.credits().length, 0);
      } finally {
        pair.close();
      }
    });
  });

  describe('a split publish between two real peers', () => {
    const nets: P2PNetwork[] = [];
    after(async () => {
      await Promise.all(nets.map((n) => n.stop()));
    });

    it('reaches the peer through its outbound stream, and only when armed', async () => {
      const base = await freeBasePort((b) => [b, b + 1]);
      const keys = await Promise.all(
        [0, 1].map((i) => peerKeyFromSeed(new TextEncoder().encode(`internals-${i}`))),
      );
      const logger = createLogger({ level: 'error' });
      for (const i of [0, 1])
        nets.push(
          await P2PNetwork.start({
            privateKey: keys[i]!,
            listenHost: '127.0.0.1',
            listenPort: base + i,
            bootstrap: i === 0 ? [`/ip4/127.0.0.1/tcp/${base + 1}/p2p/${peerIdOf(keys[1]!)}`] : [],
            logger,
          }),
        );
      const [a, b] = nets as [P2PNetwork, P2PNetwork];
      const topic = '/chain/internals-test/1.0.0';
      const got: string[] = [];
      b.subscribe(topic, (data) => {
        got.push(new TextDecoder().decode(data));
        return 'accept';
      });
      a.subscribe(topic, () => 'accept');
      assert.throws(() => a.publishSplit(topic, [new Uint8Array([1])]), /armSplitPublish/);
      a.armSplitPublish(splitPublisher(logger));
      await waitFor("b's message through a's split publish", 20_000, async () => {
        a.publishSplit(topic, [new TextEncoder().encode(`split ${got.length}`)]);
        await new Promise((r) => setTimeout(r, 100));
        return got.length > 0 ? true : null;
      });
    });
  });
});

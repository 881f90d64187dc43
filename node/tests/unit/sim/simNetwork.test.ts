import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../src/sim/random.js';
import { SimScheduler } from '../../../src/sim/scheduler.js';
import { type LinkModel, SimNetwork } from '../../../src/sim/simNetwork.js';

const bytes = (n: number) => new Uint8Array([n]);

/** Nodes a, b, c on topic t; each received message as [to, from, byte, time]. */
function threeNodes(link: LinkModel, seed = 'net') {
  const s = new SimScheduler(0);
  const net = new SimNetwork(s, seededRandom(seed), link);
  const got: [string, string, number, number][] = [];
  const ports = Object.fromEntries(
    ['a', 'b', 'c'].map((name) => {
      const port = net.port(name);
      port.subscribe('t', (data, from) => {
        got.push([name, from, data[0]!, s.now]);
        return 'accept';
      });
      return [name, port];
    }),
  );
  return { s, net, got, ports };
}

describe('SimNetwork', () => {
  it('delivers each message to every other subscriber within latency + jitter, in order on each link', async () => {
    const { s, got, ports } = threeNodes({ latencyMs: 10, jitterMs: 40, loss: 0, retransmitMs: 200 });
    for (let i = 0; i < 20; i++) await ports.a!.publish('t', bytes(i));
    await s.run({ until: 1000 });
    for (const to of ['b', 'c']) {
      const mine = got.filter(([t]) => t === to);
      assert.deepEqual(
        mine.map(([, , n]) => n),
        Array.from({ length: 20 }, (_, i) => i),
      );
      for (const [, from, , at] of mine) {
        assert.equal(from, 'a');
        assert.ok(at >= 10 && at <= 50, `${at}`);
      }
    }
    assert.equal(got.filter(([t]) => t === 'a').length, 0);
  });

  it('models loss as retransmissions: every message arrives, later', async () => {
    const { s, got, ports } = threeNodes({ latencyMs: 10, jitterMs: 0, loss: 0.5, retransmitMs: 100 });
    for (let i = 0; i < 40; i++) await ports.a!.publish('t', bytes(i));
    await s.run({ until: 1e7 });
    assert.equal(got.length, 80);
    assert.ok(
      got.some(([, , , at]) => at >= 110),
      'some message waited for a retransmission',
    );
  });

  it('cuts one way: a reaches b while b does not reach a, until healed', async () => {
    const { s, net, got, ports } = threeNodes({ latencyMs: 5, jitterMs: 0, loss: 0, retransmitMs: 100 });
    net.cut('b', 'a');
    await ports.a!.publish('t', bytes(1));
    await ports.b!.publish('t', bytes(2));
    await s.run({ until: 100 });
    assert.deepEqual(got.map(([to, from, n]) => `${from}>${to}:${n}`).sort(), ['a>b:1', 'a>c:1', 'b>c:2']);
    assert.deepEqual(ports.a!.connectedPeers(), ['c']);
    net.heal();
    await ports.b!.publish('t', bytes(3));
    await s.run({ until: 200 });
    assert.ok(got.some(([to, from, n]) => to === 'a' && from === 'b' && n === 3));
  });

  it('tells a watcher of the peers on a topic, and of one that joins later', async () => {
    const s = new SimScheduler(0);
    const net = new SimNetwork(s, seededRandom('join'));
    const a = net.port('a');
    const b = net.port('b');
    const c = net.port('c');
    a.subscribe('t', () => 'accept');
    b.subscribe('t', () => 'accept');
    const joined: string[] = [];
    a.onTopicPeerJoined('t', (peer) => joined.push(peer));
    c.subscribe('t', () => 'accept');
    await s.run({ until: 100 });
    assert.deepEqual(joined, ['b', 'c']);
  });

  describe('links shaped by rules (as devnet net shapes them on the other runtimes)', () => {
    const WIRE: LinkModel = { latencyMs: 5, jitterMs: 0, loss: 0, retransmitMs: 200 };

    it("a's out rule for b delays what a sends b, and nothing else", async () => {
      const { s, net, got, ports } = threeNodes(WIRE);
      net.shape('a', [{ peer: 'b', direction: 'out', latencyMs: 100 }]);
      await ports.a!.publish('t', bytes(1));
      await ports.b!.publish('t', bytes(2));
      await s.run({ until: 1000 });
      const at = (from: string, to: string) => got.find(([t, f]) => t === to && f === from)![3];
      assert.equal(at('a', 'b'), 105, 'the rule, then the wire');
      assert.equal(at('a', 'c'), 5);
      assert.equal(at('b', 'a'), 5, 'the other way is not shaped');
      assert.deepEqual(net.rulesOf('a'), [{ peer: 'b', direction: 'out', latencyMs: 100 }]);
    });

    it("b's in rule for every peer delays what reaches b; cleared, the wire alone again", async () => {
      const { s, net, got, ports } = threeNodes(WIRE);
      net.shape('b', [{ peer: '*', direction: 'in', latencyMs: 50 }]);
      await ports.a!.publish('t', bytes(1));
      await ports.c!.publish('t', bytes(2));
      await s.run({ until: 1000 });
      const toB = got.filter(([t]) => t === 'b').map(([, , , at]) => at);
      assert.deepEqual(toB, [55, 55]);
      net.shape('b', []);
      await ports.a!.publish('t', bytes(3));
      await s.run({ until: 2000 });
      assert.equal(got.find(([t, , n]) => t === 'b' && n === 3)![3], 1005);
    });

    it('a rate shapes a burst with a token bucket and keeps the order', async () => {
      const { s, net, got, ports } = threeNodes(WIRE);
      // 80 kbit/s = 10 bytes a ms; the bucket holds 16 KiB.
      net.shape('a', [{ peer: 'b', direction: 'out', rateBps: 80_000 }]);
      for (let i = 0; i < 40; i++) {
        const data = new Uint8Array(1000);
        data[0] = i;
        await ports.a!.publish('t', data);
      }
      await s.run({ until: 60_000 });
      const toB = got.filter(([t]) => t === 'b');
      assert.deepEqual(
        toB.map(([, , n]) => n),
        Array.from({ length: 40 }, (_, i) => i),
      );
      const last = toB.at(-1)![3];
      // 40,000 bytes, 16,384 at once, the rest at 10 a ms: 2,361.6 ms, then the wire.
      assert.ok(Math.abs(last - (2361.6 + 5)) < 1, `the last arrives at ${last}`);
      assert.ok(
        got.filter(([t]) => t === 'c').every(([, , , at]) => at === 5),
        'c is not behind the bucket',
      );
    });

    it('loss on a rule costs retransmissions, never a message', async () => {
      const { s, net, got, ports } = threeNodes(WIRE);
      net.shape('a', [{ peer: '*', direction: 'out', loss: 0.5 }]);
      for (let i = 0; i < 40; i++) await ports.a!.publish('t', bytes(i));
      await s.run({ until: 1e7 });
      assert.equal(got.length, 80);
      assert.ok(
        got.some(([, , , at]) => at >= 205),
        'some message waited a retransmission timeout',
      );
    });

    it('the same seed and rules give the same times', async () => {
      const times = async () => {
        const { s, net, got, ports } = threeNodes({ ...WIRE, jitterMs: 10 }, 'shaped');
        net.shape('a', [{ peer: '*', direction: 'out', latencyMs: 30, jitterMs: 20, loss: 0.1 }]);
        for (let i = 0; i < 30; i++) await ports.a!.publish('t', bytes(i));
        await s.run({ until: 1e6 });
        return got.map(([to, , n, at]) => `${to}:${n}@${at}`);
      };
      assert.deepEqual(await times(), await times());
    });
  });
});

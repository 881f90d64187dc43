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
});

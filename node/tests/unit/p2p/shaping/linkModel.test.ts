/**
 * The link model (p2p/shaping/linkModel.ts): when each chunk is delivered under latency, jitter,
 * loss and rate, from the time it was handed over, never before the chunk before it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LinkCondition, linkCondition } from '../../../../src/p2p/shaping/conditions.js';
import {
  deliveryAt,
  MIN_BURST_BYTES,
  MIN_RTO_MS,
  MSS_BYTES,
  newBucket,
  newLinkState,
  retransmissionDelay,
} from '../../../../src/p2p/shaping/linkModel.js';
import { prng } from '../../../support/prng.js';

const clear: LinkCondition = { latencyMs: 0, jitterMs: 0, loss: 0, linkRateBps: null, sharedRateBps: null };

describe('the link model', () => {
  it('latency: each chunk at its own time plus the latency; chunks in flight do not add up', () => {
    const c = { ...clear, latencyMs: 100 };
    const s = newLinkState();
    const shared = newBucket();
    const at = [0, 1, 2, 50].map((t) => deliveryAt(c, s, shared, t, 100, Math.random));
    assert.deepEqual(at, [100, 101, 102, 150]);
  });

  it('jitter: within the latency plus or minus the jitter, never reordered, the mean a little above', () => {
    const c = { ...clear, latencyMs: 100, jitterMs: 20 };
    const s = newLinkState();
    const random = prng(1);
    let last = Number.NEGATIVE_INFINITY;
    let sum = 0;
    for (let t = 0; t < 10_000; t += 10) {
      const at = deliveryAt(c, s, newBucket(), t, 100, random);
      assert.ok(at >= t + 80 && at <= t + 120, `chunk of ${t} at ${at}`);
      assert.ok(at >= last, 'in order');
      last = at;
      sum += at - t;
    }
    const mean = sum / 1000;
    assert.ok(mean >= 100 && mean < 106, `mean delay ${mean}`);
  });

  it('rate: a burst passes at once, then the bytes leave at the rate', () => {
    const c = { ...clear, linkRateBps: 1_000_000 }; // 125 bytes a ms
    const s = newLinkState();
    const shared = newBucket();
    assert.equal(deliveryAt(c, s, shared, 0, MIN_BURST_BYTES, Math.random), 0);
    // The bucket is empty: 125,000 bytes more take 1 s.
    assert.equal(deliveryAt(c, s, shared, 0, 125_000, Math.random), 1000);
    // An idle link fills its bucket again (up to the burst).
    assert.equal(deliveryAt(c, s, shared, 5000, 1000, Math.random), 5000);
  });

  it("the shared rate is the node's: two links share it, and each link's own rate comes after", () => {
    const shared = newBucket();
    const c = { ...clear, sharedRateBps: 1_000_000 };
    const a = newLinkState();
    const b = newLinkState();
    deliveryAt(c, a, shared, 0, MIN_BURST_BYTES, Math.random);
    assert.equal(deliveryAt(c, b, shared, 0, 125_000, Math.random), 1000, 'b waits for what a sent');
    const both = { ...c, linkRateBps: 500_000 };
    const d = newLinkState();
    // The shared bucket (empty at 1000 ms, 125 bytes a ms) lets it go, then the link's own (62.5
    // bytes a ms, a full burst) takes what the burst does not cover.
    const bytes = 125_000 + MIN_BURST_BYTES;
    assert.equal(deliveryAt(both, d, shared, 1000, bytes, Math.random), 1000 + bytes / 125 + 125_000 / 62.5);
  });

  it('loss: a lost segment costs a retransmission timeout, doubled when lost again; nothing is dropped', () => {
    const c = { ...clear, latencyMs: 20, loss: 0.5 };
    assert.equal(
      retransmissionDelay(c, 100, () => 0.99),
      0,
      'not lost',
    );
    // Lost once (the first draw), the retransmission arrives (the second draw).
    const draws = [0, 0.99];
    assert.equal(
      retransmissionDelay(c, 100, () => draws.shift()!),
      MIN_RTO_MS,
    );
    // Lost three times: 200 + 400 + 800.
    const thrice = [0, 0, 0, 0.99];
    assert.equal(
      retransmissionDelay(c, 100, () => thrice.shift()!),
      1400,
    );
    // A long link's timeout is its round trip and four jitters.
    const far = { ...clear, latencyMs: 300, jitterMs: 25, loss: 0.5 };
    const once = [0, 0.99];
    assert.equal(
      retransmissionDelay(far, 100, () => once.shift()!),
      700,
    );
  });

  it('loss: the share of chunks delayed is the share with a segment lost', () => {
    const random = prng(7);
    const c = { ...clear, loss: 0.01 };
    let small = 0;
    let large = 0;
    for (let i = 0; i < 20_000; i++) {
      if (retransmissionDelay(c, 100, random) > 0) small++;
      if (retransmissionDelay(c, 10 * MSS_BYTES, random) > 0) large++;
    }
    // 1% of one-segment chunks; 1 - 0.99^10 = 9.6% of ten-segment ones.
    assert.ok(small > 150 && small < 260, `${small} of 20,000 small chunks`);
    assert.ok(large > 1700 && large < 2150, `${large} of 20,000 large chunks`);
  });

  it("a peer's rule replaces the fields it sets of the * rule; the * rate is the shared one", () => {
    const c = linkCondition(
      {
        links: [
          { peer: '*', direction: 'out', latencyMs: 50, jitterMs: 5, rateBps: 1_000_000 },
          { peer: 'B', direction: 'out', latencyMs: 200, rateBps: 64_000 },
          { peer: 'B', direction: 'in', loss: 0.1 },
        ],
        deafTo: [],
      },
      'B',
      'out',
    );
    assert.deepEqual(c, {
      latencyMs: 200,
      jitterMs: 5,
      loss: 0,
      linkRateBps: 64_000,
      sharedRateBps: 1_000_000,
    });
  });
});

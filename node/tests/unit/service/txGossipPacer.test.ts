/**
 * The pacing of this node's own transaction gossip (service/txGossipPacer.ts): an idle node
 * publishes at once; within the interval after a publication, what is admitted waits and leaves
 * together, in order, each transaction once; after stop nothing is published.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, type Tx } from '../../../src/chain/index.js';
import {
  TX_GOSSIP_INTERVAL_ENV,
  TX_GOSSIP_INTERVAL_MS,
  TxGossipPacer,
  txGossipIntervalMs,
} from '../../../src/service/txGossipPacer.js';
import { genesisState, key, tx } from '../../fixtures.js';

const state = genesisState({ accounts: { alice: coins(100), bob: coins(100) } });
const transfer = (nonce: number): Tx => tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n, nonce });

/** A pacer on a clock that stands still (so every push after the first is within the interval). */
function paced(intervalMs = 1) {
  const sent: (readonly Tx[])[] = [];
  let onSend = () => {};
  const pacer = new TxGossipPacer(
    (txs) => {
      sent.push(txs);
      onSend();
    },
    intervalMs,
    () => 1000,
  );
  const nextSend = () => new Promise<void>((resolve) => (onSend = resolve));
  return { pacer, sent, nextSend };
}

describe('transaction gossip pacer', () => {
  it('an idle node publishes at once', () => {
    const { pacer, sent } = paced();
    const a = transfer(0);
    pacer.push([a]);
    assert.deepEqual(sent, [[a]]);
    assert.equal(pacer.waiting, 0);
    pacer.stop();
  });

  it('within the interval, what is admitted waits and leaves as one publication, in order', async () => {
    const { pacer, sent, nextSend } = paced();
    const [a, b, c, d] = [0, 1, 2, 3].map(transfer);
    pacer.push([a!]);
    pacer.push([b!, c!]);
    pacer.push([d!]);
    assert.equal(sent.length, 1, 'only the first left at once');
    assert.equal(pacer.waiting, 3);
    const next = nextSend();
    await next;
    assert.deepEqual(sent, [[a], [b, c, d]]);
    assert.equal(pacer.waiting, 0);
    pacer.stop();
  });

  it('an empty push publishes nothing; after stop nothing is published and what waited is dropped', async () => {
    const { pacer, sent } = paced();
    pacer.push([]);
    assert.deepEqual(sent, []);
    pacer.push([transfer(0)]);
    pacer.push([transfer(1)]);
    pacer.stop();
    assert.equal(pacer.waiting, 0);
    pacer.push([transfer(2)]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(sent.length, 1);
  });

  it('interval 0 publishes every push at once', () => {
    const { pacer, sent } = paced(0);
    pacer.push([transfer(0)]);
    pacer.push([transfer(1)]);
    assert.equal(sent.length, 2);
    pacer.stop();
  });

  it(`${TX_GOSSIP_INTERVAL_ENV}: the default when unset, an integer 0-1000, otherwise an error naming it`, () => {
    assert.equal(txGossipIntervalMs(undefined), TX_GOSSIP_INTERVAL_MS);
    assert.equal(txGossipIntervalMs(''), TX_GOSSIP_INTERVAL_MS);
    assert.equal(txGossipIntervalMs('0'), 0);
    assert.equal(txGossipIntervalMs('25'), 25);
    for (const bad of ['-1', '1001', '2.5', 'ten', ' '])
      assert.throws(() => txGossipIntervalMs(bad), new RegExp(TX_GOSSIP_INTERVAL_ENV));
  });
});

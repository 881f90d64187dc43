/**
 * Forged twins against four real validators (issue 13): a burst of transactions with a twin just
 * before or just after each original, sent by the RPC to the original's node or to another, and
 * a rogue libp2p peer publishing twins on /chain/txs/1.0.0 around originals that reach the
 * network only through its own message. Every genuine transaction is confirmed on every node;
 * no twin is answered `received`, known to any node, or included in any block.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { type Tx, txHash, txToJson } from '../../src/chain/index.js';
import { RpcError } from '../../src/client/rpcClient.js';
import { buildTx } from '../../src/client/txBuilder.js';
import { encodeJson } from '../../src/p2p/messages.js';
import { TOPIC_TXS } from '../../src/p2p/protocol.js';
import type { SubmitAnswer } from '../../src/rpc/answers.js';
import { flipV, highS, withAmount } from '../forgeries.js';
import { Cluster } from '../support/cluster.js';

const CHAIN_ID = 'chain-devnet-1';
const hashOf = (t: Tx) => txHash(t, CHAIN_ID);

/** The ways to spoil a transaction without its key, used in turn. */
const TWINS: ((g: Tx) => Tx)[] = [
  flipV,
  highS,
  (g) => withAmount(g, g.amount + 1n),
  (g) => withAmount(g, 900_000n * 10n ** 18n),
];

describe('forged twins on four validators', () => {
  let c: Cluster;
  before(async () => {
    c = await Cluster.create(4, 250);
    c.startAll();
    await c.waitForHeight(2);
  });
  after(() => c.stopAll());

  /** Each of `keys` signs `count` consecutive transfers from its current nonce. */
  async function transfers(keys: readonly Uint8Array[], count: number): Promise<Tx[][]> {
    const timestamp = Math.floor(Date.now() / 1000);
    return Promise.all(
      keys.map(async (privateKey, s) => {
        const first = await buildTx(c.nodes[0]!.client, {
          type: 'TRANSFER',
          privateKey,
          to: c.nodes[s % 4]!.accountAddress,
          amount: 1n,
          chainId: CHAIN_ID,
          timestamp,
        });
        return Promise.all(
          Array.from({ length: count }, (_x, k) =>
            buildTx(c.nodes[0]!.client, {
              type: 'TRANSFER',
              privateKey,
              to: c.nodes[s % 4]!.accountAddress,
              amount: 1n,
              nonce: first.nonce + k,
              chainId: CHAIN_ID,
              timestamp,
            }),
          ),
        );
      }),
    );
  }

  it('every genuine transaction is confirmed on every node; no twin is received, known or included', async () => {
    const keys = await c.accountKeys();
    const start = await c.height(0);
    const genuine: Tx[] = [];
    const twins: Tx[] = [];

    // By the RPC, all at once: 8 senders × 4 nonces, each sender to one node (4 of them to
    // validator-0), a twin just before or just after each original, to the same node or another.
    const rpcBurst = await transfers(keys.slice(10, 18), 4);
    const sends: { node: number; tx: Tx; twin: boolean }[] = [];
    let j = 0;
    for (const [s, txs] of rpcBurst.entries()) {
      const node = s < 4 ? 0 : s % 4;
      for (const g of txs) {
        const twin = TWINS[j % TWINS.length]!(g);
        const twinNode = (j >> 1) % 2 === 0 ? node : (node + 1) % 4;
        const pair = [
          { node, tx: g, twin: false },
          { node: twinNode, tx: twin, twin: true },
        ];
        sends.push(...(j % 2 === 0 ? pair.reverse() : pair));
        genuine.push(g);
        twins.push(twin);
        j++;
      }
    }

    // By a rogue gossip peer at validator-0: one message (its next ones would be dropped by
    // gossipsub's scoring once this one is rejected) with twins just before and just after
    // originals that reach the network only through it, and twins of the first RPC sender's
    // transactions, racing the RPC burst sent right after it.
    const rogueOnly = await transfers(keys.slice(18, 22), 2);
    const rogueMessage: Tx[] = [];
    for (const [s, txs] of rogueOnly.entries())
      for (const [k, g] of txs.entries()) {
        const twin = TWINS[(s + k) % TWINS.length]!(g);
        rogueMessage.push(...((s + k) % 2 === 0 ? [twin, g] : [g, twin]));
        genuine.push(g);
        twins.push(twin);
      }
    for (const g of rpcBurst[0]!) {
      const twin = withAmount(g, g.amount + 2n);
      rogueMessage.push(twin);
      twins.push(twin);
    }
    const rogue = await c.outsidePeer('rogue-twins', 0);
    let answers: SubmitAnswer[];
    try {
      await rogue.publish(TOPIC_TXS, encodeJson(rogueMessage.map(txToJson)));
      answers = await Promise.all(sends.map((x) => c.nodes[x.node]!.client.sendTx(x.tx)));
    } finally {
      await rogue.stop();
    }

    for (const [i, x] of sends.entries()) {
      const a = answers[i]!;
      if (x.twin) {
        assert.notEqual(
          a.status,
          'received',
          `twin ${a.tx_hash} sent to ${c.nodes[x.node]!.name} was received`,
        );
      } else {
        assert.equal(a.status, 'received', `${c.nodes[x.node]!.name}: ${a.error}`);
        assert.equal(a.tx_hash, hashOf(x.tx), 'the node answers the transaction’s own hash');
      }
    }

    const confirmedAt = new Map<string, number>();
    for (const n of c.nodes)
      for (const g of genuine)
        confirmedAt.set(
          hashOf(g),
          await waitFor(`${n.name} to confirm ${hashOf(g)}`, 30_000, async () => {
            const r = await n.client.receipt(hashOf(g));
            return r.status === 'confirmed' ? r.block_height : null;
          }),
        );
    const end = Math.max(...confirmedAt.values());
    await c.waitForHeight(end);

    const twinHashes = new Set(twins.map(hashOf));
    assert.equal(twinHashes.size, twins.length, 'every twin has a hash of its own');
    for (const g of genuine) assert.ok(!twinHashes.has(hashOf(g)), 'no twin shares an original’s hash');
    const included: string[] = [];
    for (let h = start + 1; h <= end; h++)
      for (const n of c.nodes) {
        const block = await n.client.get<{ txs: { tx_hash: string }[] }>(`/block/${h}`);
        for (const t of block.txs) {
          assert.ok(!twinHashes.has(t.tx_hash), `${n.name} height ${h} includes twin ${t.tx_hash}`);
          if (n === c.nodes[0]) included.push(t.tx_hash);
        }
      }
    for (const g of genuine)
      assert.equal(included.filter((x) => x === hashOf(g)).length, 1, `${hashOf(g)} included once`);
    for (const n of c.nodes)
      for (const t of twins)
        await assert.rejects(
          n.client.receipt(hashOf(t)),
          (e) => e instanceof RpcError && e.status === 404,
          `${n.name} knows twin ${hashOf(t)}`,
        );
  });
});

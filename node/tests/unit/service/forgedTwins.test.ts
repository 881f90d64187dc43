/**
 * A forged copy never censors a genuine transaction (issue 13). Twins of a transaction (its
 * signing bytes under a spoiled signature, or its signature over a changed field) arrive just
 * before or just after it: in one turn of the event loop, each in its own turn, or while the
 * other still waits for its signature check; by the RPC or in gossip messages, single or batched.
 * Every genuine transaction is admitted with a true answer, no forged one is ever answered
 * `received` or pooled, and a gossip message carrying one is rejected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlock, coins, type Tx, txHash, txToJson } from '../../../src/chain/index.js';
import type { Verdict } from '../../../src/p2p/network.js';
import type { SubmitOutcome } from '../../../src/rpc/backend.js';
import { txsVerdict } from '../../../src/service/txGossip.js';
import { genesisState, key, tx } from '../../fixtures.js';
import { flipV, highS, resign, withAmount } from '../../forgeries.js';
import { pipeline } from '../../support/admissionPipeline.js';
import { commitAsSoleValidator, type Harness, makeHarness } from '../../support/harness.js';

const state = genesisState({ accounts: { alice: coins(100), bob: coins(100), carol: coins(100) } });
const chainId = state.params.chainId;
const hashOf = (t: Tx) => txHash(t, chainId);
const transfer = (from: string, nonce: number, amount = 1n) =>
  tx(state, from, 'TRANSFER', { to: key('dave').account, amount, nonce });

/** One RPC request (one transaction) or one gossip message (one or more). */
interface Send {
  readonly via: 'rpc' | 'gossip';
  readonly txs: readonly Tx[];
}
const rpc = (t: Tx): Send => ({ via: 'rpc', txs: [t] });
const gossip = (...txs: Tx[]): Send => ({ via: 'gossip', txs });

interface Answer {
  readonly send: Send;
  readonly outcomes: readonly SubmitOutcome[];
  readonly verdict: Verdict | null;
}

type Pipeline = ReturnType<typeof pipeline>;

/** Sends each turn's messages in order and ends the turn; then lets the queue drain. */
async function run(p: Pipeline, turns: readonly (readonly Send[])[]): Promise<Answer[]> {
  const answers: Promise<Answer>[] = [];
  for (const sends of turns) {
    for (const send of sends)
      answers.push(
        send.via === 'rpc'
          ? p.admission
              .submit(txToJson(send.txs[0]!), 300, true)
              .then((o) => ({ send, outcomes: [o], verdict: null }))
          : p.admission.submitAll(send.txs.map(txToJson), 300 * send.txs.length).then((o) => ({
              send,
              outcomes: o.kind === 'checked' ? o.outcomes : [],
              verdict: txsVerdict(o),
            })),
      );
    p.endTurn();
  }
  p.drain();
  return Promise.all(answers);
}

const describeOutcome = (o: SubmitOutcome | undefined) =>
  o === undefined ? 'no answer' : o.kind === 'rejected' ? `rejected ${o.code}: ${o.message}` : o.kind;

/**
 * Every genuine transaction answered `received` (or, sent again after it was pooled, DUPLICATE)
 * and pooled as sent; no forged one answered `received` or pooled; a gossip message is rejected
 * exactly when it carries a forgery, accepted otherwise.
 */
function assertGenuineWin(p: Pipeline, answers: readonly Answer[], forged: readonly Tx[]): void {
  const genuine = new Map<string, Tx>();
  const seenBefore = new Set<string>();
  for (const a of answers) {
    for (const [i, t] of a.send.txs.entries()) {
      const o = a.outcomes[i];
      const what = `${forged.includes(t) ? 'forged' : 'genuine'} ${t.from === key('alice').account ? 'alice' : 'filler'} nonce ${t.nonce} via ${a.send.via}`;
      if (forged.includes(t)) {
        assert.notEqual(o?.kind, 'received', `${what} was answered received`);
        continue;
      }
      const again = seenBefore.has(hashOf(t));
      const ok = o?.kind === 'received' || (again && o?.kind === 'rejected' && o.code === 'DUPLICATE');
      assert.ok(ok, `${what}: ${describeOutcome(o)}`);
      genuine.set(hashOf(t), t);
    }
    for (const t of a.send.txs) seenBefore.add(hashOf(t));
    if (a.verdict !== null) {
      const carriesForgery = a.send.txs.some((t) => forged.includes(t));
      assert.equal(
        a.verdict,
        carriesForgery ? 'reject' : 'accept',
        `gossip message of ${a.send.txs.length} (${carriesForgery ? 'with' : 'without'} a forgery): ${a.outcomes.map(describeOutcome).join('; ')}`,
      );
    }
  }
  for (const [hash, t] of genuine)
    assert.deepEqual(p.mempool.get(hash)?.tx, t, `genuine nonce ${t.nonce} pooled as sent`);
  assert.equal(p.mempool.size, genuine.size, 'nothing else pooled');
}

/** Twins of alice's nonce 1, made without her key. */
const TWINS: Record<string, (g: Tx) => Tx> = {
  'v flipped': flipV,
  'high-s twin': highS,
  'same nonce, another amount': (g) => withAmount(g, 2n),
  'same nonce, a huge amount': (g) => withAmount(g, coins(99)),
};

/** `twin` placed just before or just after the send at `at`. */
function around(sends: Send[], at: number, twin: Send, before: boolean): Send[] {
  const out = [...sends];
  out.splice(before ? at : at + 1, 0, twin);
  return out;
}

/** Alice's burst (nonces 0, 1, 2) and a twin of nonce 1, delivered in several ways. */
const DELIVERIES: Record<string, (g: Tx[], f: Tx, before: boolean) => Send[]> = {
  'each by RPC': (g, f, b) => around(g.map(rpc), 1, rpc(f), b),
  'each in its own gossip message': (g, f, b) =>
    around(
      g.map((t) => gossip(t)),
      1,
      gossip(f),
      b,
    ),
  'genuine by RPC, twin by gossip': (g, f, b) => around(g.map(rpc), 1, gossip(f), b),
  'genuine by gossip, twin by RPC': (g, f, b) =>
    around(
      g.map((t) => gossip(t)),
      1,
      rpc(f),
      b,
    ),
  'genuine in one gossip batch, twin in its own message': (g, f, b) =>
    around([gossip(...g)], 0, gossip(f), b),
  'twin in a gossip batch with a copy of a genuine one': (g, f, b) =>
    around([gossip(...g)], 0, gossip(g[0]!, f), b),
};

/**
 * How the sends meet the event loop: all in one turn; each in its own turn; or the first of
 * twin and original still waiting for its signature check when the other arrives in a later
 * turn (flushes of 2, two other senders' transactions ahead of it).
 */
const TIMINGS: Record<string, (sends: Send[], firstOfPair: number) => { turns: Send[][]; maxBatch: number }> =
  {
    'in one turn': (sends) => ({ turns: [sends], maxBatch: 64 }),
    'each in its own turn': (sends) => ({ turns: sends.map((s) => [s]), maxBatch: 64 }),
    'the first still waiting when the other arrives': (sends, first) => ({
      turns: [
        [rpc(transfer('bob', 0)), rpc(transfer('carol', 0)), ...sends.slice(0, first + 1)],
        sends.slice(first + 1),
      ],
      maxBatch: 2,
    }),
  };

describe('forged twins in the admission pipeline', () => {
  const burst = [0, 1, 2].map((n) => transfer('alice', n));
  for (const [twinName, makeTwin] of Object.entries(TWINS))
    for (const before of [true, false])
      for (const [deliveryName, deliver] of Object.entries(DELIVERIES))
        for (const [timingName, timing] of Object.entries(TIMINGS))
          it(`${twinName}, just ${before ? 'before' : 'after'} the original; ${deliveryName}; ${timingName}`, async () => {
            const twin = makeTwin(burst[1]!);
            const sends = deliver(burst, twin, before);
            const firstOfPair = sends.findIndex((s) => s.txs.includes(twin) || s.txs.includes(burst[1]!));
            const { turns, maxBatch } = timing(sends, firstOfPair);
            const p = pipeline(state, { maxBatch });
            assertGenuineWin(p, await run(p, turns), [twin]);
          });

  it('64 forgeries from the victim’s address, ahead of her transactions in one turn', async () => {
    const forged = Array.from({ length: 64 }, (_x, i) => withAmount(transfer('alice', i), 2n));
    for (const via of ['rpc', 'gossip'] as const) {
      const p = pipeline(state);
      const sends =
        via === 'rpc'
          ? [...forged.map(rpc), rpc(transfer('alice', 0)), rpc(transfer('alice', 1))]
          : [gossip(...forged), gossip(transfer('alice', 0), transfer('alice', 1))];
      assertGenuineWin(p, await run(p, [sends]), forged);
    }
  });

  it('64 forgeries of one nonce with other amounts, ahead of the original', async () => {
    const forged = Array.from({ length: 64 }, (_x, i) => withAmount(transfer('alice', 0), BigInt(i + 2)));
    const p = pipeline(state);
    assertGenuineWin(p, await run(p, [[...forged.map(rpc), rpc(transfer('alice', 0))]]), forged);
  });

  it('a huge-amount forgery of nonce 0 ahead of a burst: every later nonce still passes', async () => {
    const huge = withAmount(transfer('alice', 0), coins(99));
    const genuine = [0, 1, 2, 3].map((n) => transfer('alice', n, coins(10)));
    const p = pipeline(state);
    assertGenuineWin(p, await run(p, [[rpc(huge), ...genuine.map(rpc)]]), [huge]);
  });

  it('an identical copy of a waiting transaction gets the first one’s answer, not “already pending”', async () => {
    const g = transfer('alice', 0);
    const p = pipeline(state);
    const answers = await run(p, [[rpc(g), rpc(g), gossip(g)], [rpc(g)]]);
    assert.deepEqual(
      answers.map((a) => describeOutcome(a.outcomes[0])),
      ['received', 'received', 'received', `rejected DUPLICATE: transaction ${hashOf(g)} is already pending`],
    );
    assert.equal(p.signatures.checks, 1, 'one transaction, one signature check');
  });

  it('two genuine transactions with one nonce: the first admitted wins, the second gets a true BAD_NONCE', async () => {
    const first = transfer('alice', 0);
    const others: [string, Tx][] = [
      ['another amount', transfer('alice', 0, 2n)],
      ['the same bytes signed again', resign(first, key('alice').privateKey, chainId)],
    ];
    for (const [name, second] of others) {
      assert.notEqual(hashOf(second), hashOf(first), `${name}: another transaction, another hash`);
      const p = pipeline(state);
      const answers = await run(p, [[rpc(first), rpc(second)]]);
      assert.deepEqual(
        answers.map((a) => describeOutcome(a.outcomes[0])),
        [
          'received',
          `rejected BAD_NONCE: bad nonce: nonce 0 is already used by pending transaction ${hashOf(first)}`,
        ],
        name,
      );
      assert.deepEqual(p.mempool.get(hashOf(first))?.tx, first);
    }
  });
});

describe('forged twins in the node', () => {
  /** A one-validator node core with alice and bob funded, and alice's next transfer to bob. */
  async function withNode(test: (h: Harness, g: Tx) => Promise<void>): Promise<void> {
    const h = await makeHarness({ accounts: { alice: coins(100), bob: coins(100) } });
    try {
      await test(h, tx(h.service.state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n }));
    } finally {
      await h.close();
    }
  }
  /** A block of `txs` by the sole validator on the node's state, signatures unchecked. */
  const blockOf = (h: Harness, txs: readonly Tx[]) => {
    const s = h.service.state;
    return buildBlock(
      s,
      txs,
      { timestamp: s.lastTimestamp + 1, round: 0, privateKey: key('val-0').privateKey },
      { isSignatureValid: () => true },
    );
  };
  const receipt = async (h: Harness, t: Tx) => {
    const r = await h.request('GET', `/tx/${hashOf(t)}/receipt`);
    return r.status === 404 ? null : (r.json() as { status: string });
  };

  it('over the RPC and gossip at once: the block holds exactly the genuine ones, receipts name them, twins are unknown', () =>
    withNode(async (h) => {
      const genuine = [0, 1, 2].map((n) =>
        tx(h.service.state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n, nonce: n }),
      );
      const twins = [flipV(genuine[0]!), highS(genuine[1]!), withAmount(genuine[2]!, coins(50))];
      // Each twin just before its original: by gossip, then the original by the RPC route.
      const answers = await Promise.all(
        genuine.flatMap((g, i) => [
          h.service.submitFromPeer([txToJson(twins[i]!)], 300).then((o) => txsVerdict(o)),
          h.request('POST', '/tx/send', txToJson(g)).then((r) => (r.json() as { status: string }).status),
        ]),
      );
      assert.deepEqual(answers, ['reject', 'received', 'reject', 'received', 'reject', 'received']);
      const block = await h.produce();
      assert.deepEqual(block.txs, genuine, 'the block holds the genuine transactions as signed');
      for (const g of genuine) assert.equal((await receipt(h, g))?.status, 'confirmed');
      for (const t of twins) assert.equal(await receipt(h, t), null, `twin ${hashOf(t)} is unknown`);
      const json = (await h.request('GET', '/block/1')).json() as { txs: { tx_hash: string }[] };
      assert.deepEqual(
        json.txs.map((t) => t.tx_hash),
        genuine.map(hashOf),
      );
    }));

  it('the proposer selects only verified transactions: never a twin waiting for its check', () =>
    withNode(async (h, g) => {
      const waiting = Promise.all([
        h.service.submit(txToJson(flipV(g)), 300),
        h.service.submit(txToJson(g), 300),
      ]);
      const early = h.service.buildProposal(key('val-0').privateKey, 0);
      assert.deepEqual(early.block.txs, [], 'nothing is verified yet');
      assert.deepEqual(
        (await waiting).map((o) => o.kind),
        ['rejected', 'received'],
      );
      assert.deepEqual(h.service.buildProposal(key('val-0').privateKey, 0).block.txs, [g]);
    }));

  it('a block holding a forged twin of a verified, pooled transaction is invalid', () =>
    withNode(async (h, g) => {
      assert.equal((await h.service.submit(txToJson(g), 300)).kind, 'received');
      for (const twin of [flipV(g), highS(g)])
        assert.throws(() => h.service.validateBlock(blockOf(h, [twin]).block), { code: 'BAD_TX_SIGNATURE' });
    }));

  it('a receipt names the transaction that was included, not another signature of its bytes', () =>
    withNode(async (h, pooled) => {
      const included = resign(pooled, key('alice').privateKey, chainId);
      assert.equal((await h.service.submit(txToJson(pooled), 300)).kind, 'received');
      assert.ok(await commitAsSoleValidator(h.service, key('val-0').privateKey, blockOf(h, [included])));
      assert.equal((await receipt(h, included))?.status, 'confirmed');
      assert.deepEqual(await receipt(h, pooled), {
        tx_hash: hashOf(pooled),
        status: 'failed',
        block_height: null,
        timestamp: null,
        confirmations: 0,
        error: 'replaced: nonce 0 was used by another transaction',
      });
    }));
});

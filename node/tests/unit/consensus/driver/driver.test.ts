/**
 * The consensus driver between gossip and the core, with a real ChainService (four validators)
 * and a network stub that records what is published and hands messages in as gossipsub does.
 * Time is a ManualTicker over the harness's clock: a test moves it (`ticker.advance`) and the
 * driver's timers fire then, in order, so nothing here sleeps or depends on the machine's speed.
 * Only the store's disk writes are waited for, by yielding to the event loop (`until`).
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import type { Proposal } from '../../../../src/chain/index.js';
import {
  activeValidators,
  type Block,
  blockHash,
  type Commit,
  type Equivocation,
  isProvenEquivocation,
  signProposal,
  signVote,
  type Vote,
} from '../../../../src/chain/index.js';
import { ConsensusDriver } from '../../../../src/consensus/driver/driver.js';
import type { DriverDeps } from '../../../../src/consensus/driver/driverOptions.js';
import { createMetrics } from '../../../../src/metrics/metrics.js';
import { decodeJson, encodeProposal, encodeVote } from '../../../../src/p2p/messages.js';
import type { P2PNetwork, Verdict } from '../../../../src/p2p/network.js';
import { TOPIC_BLOCKS, TOPIC_VOTES } from '../../../../src/p2p/protocol.js';
import { CheckedSigner } from '../../../../src/privval/checkedSigner.js';
import { NEVER_SIGNED } from '../../../../src/privval/privValidatorState.js';
import { ManualTicker } from '../../../../src/util/ticker.js';
import { key, type TestKey } from '../../../fixtures.js';
import { type Harness, makeHarness } from '../../../support/harness.js';

const LABELS = ['val-0', 'val-1', 'val-2', 'val-3'];
const LONG = { propose: () => 60_000, prevote: () => 60_000, precommit: () => 60_000 };

class StubNetwork {
  readonly handlers = new Map<string, (data: Uint8Array, from: string) => Verdict | Promise<Verdict>>();
  readonly published: { topic: string; json: Record<string, unknown> }[] = [];
  subscribe(topic: string, h: (data: Uint8Array, from: string) => Verdict | Promise<Verdict>): void {
    this.handlers.set(topic, h);
  }
  async publish(topic: string, data: Uint8Array): Promise<void> {
    this.published.push({ topic, json: decodeJson(data) as Record<string, unknown> });
  }
  onTopicPeerJoined(): void {}
  connectedPeers(): string[] {
    return [];
  }
  deliver(topic: string, data: Uint8Array): Verdict | Promise<Verdict> {
    return this.handlers.get(topic)!(data, 'peer');
  }
}

/** A block sync that only counts the catch-ups it is asked for. */
const countingSync = () => ({
  active: false,
  catchUps: 0,
  askPeers: [] as (number | undefined)[],
  async catchUp(askPeers?: number) {
    this.catchUps++;
    this.askPeers.push(askPeers);
    return 0;
  },
});

/** One turn of the event loop: pending I/O callbacks and every queued promise job run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Yields to the event loop until `cond` holds (the store's disk writes); throws naming `what`. */
async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000_000; i++) {
    if (cond()) return;
    await turn();
  }
  throw new Error(`never happened: ${what}`);
}

const PENDING = Symbol('pending');
/** The verdict, or PENDING when it is still not given after the promise jobs queued now have run. */
const settled = async <T>(p: T | Promise<T>) => {
  let result: T | typeof PENDING = PENDING;
  void Promise.resolve(p).then((v) => {
    result = v;
  });
  await turn();
  return result;
};

describe('ConsensusDriver', () => {
  let h: Harness;
  let driver: ConsensusDriver;
  let ticker: ManualTicker;
  afterEach(async () => {
    await driver?.stop();
    await h?.close();
  });

  /** The driver for the validator at active index `me`, over a fresh 4-validator chain. */
  async function setup(
    me: number,
    blockTimeMs = 50,
    timeouts = LONG,
    sync: unknown = null,
    startGraceMs = 0,
  ) {
    h = await makeHarness({ validators: LABELS });
    const active = activeValidators(h.service.state).map(
      (v) => LABELS.map(key).find((k) => k.validator === v.address)!,
    );
    const net = new StubNetwork();
    const logger = memoryLogger();
    ticker = new ManualTicker(h.clock);
    driver = new ConsensusDriver(
      {
        privateKey: active[me]!.privateKey,
        signer: new CheckedSigner(active[me]!.privateKey, NEVER_SIGNED, {
          persist: () => undefined,
          onRefusal: () => undefined,
        }),
        blockTimeMs,
        timeouts,
        rebroadcastMs: 1000,
        maxClockDriftSec: 30,
        startGraceMs,
      },
      {
        service: h.service,
        network: net as unknown as P2PNetwork,
        sync: sync as DriverDeps['sync'],
        metrics: createMetrics(),
        logger,
        ticker,
      },
    );
    await driver.start();
    const chainId = h.service.state.params.chainId;
    const vote = (k: TestKey, v: Omit<Vote, 'signature' | 'validator'>) =>
      encodeVote(signVote(chainId, { ...v, validator: k.validator }, k.privateKey), h.clock.now);
    const proposal = (k: TestKey, block: Block, round = 0) => {
      const base = { height: block.header.height, round, polRound: -1, blockHash: blockHash(block.header) };
      const p: Proposal = {
        ...base,
        block,
        proposer: k.validator,
        signature: signProposal(chainId, base, k.privateKey),
      };
      return encodeProposal(p, h.clock.now);
    };
    return { net, active, vote, proposal, chainId, logger };
  }

  it('a vote for the next height gets its gossip verdict when the node enters that height: accepted and passed on, not dropped', async () => {
    const { net, active, vote, proposal } = await setup(0);
    // Height 2's vote arrives while height 1 is undecided here (the next proposer entered first).
    const early = net.deliver(
      TOPIC_VOTES,
      vote(active[3]!, { kind: 'prevote', height: 2, round: 0, blockHash: null }),
    );
    assert.equal(await settled(early), PENDING, 'no verdict before height 2');
    await decideHeightOne(net, active, vote, proposal);
    assert.equal(
      await settled(early),
      PENDING,
      'height 1 committed; height 2 starts a block time after 1 did',
    );
    ticker.advance(50);
    assert.equal(await settled(early), 'accept', 'passed on once the node is at height 2');
  });

  it('once block sync has committed the height, its consensus no longer acts (a proposer would build on the wrong state)', async () => {
    // active[2] proposes height 1 in round 1. Height 1 is committed by sync (as BlockSync does)
    // while the driver still runs its consensus; round-1 votes of two others then move that
    // consensus to round 1, where it would build a block on the state after height 1.
    const { net, active, vote, chainId } = await setup(2);
    const block = h.service.buildProposal(active[1]!.privateKey, 0).block;
    const hash = blockHash(block.header);
    const commit: Commit = {
      height: 1,
      round: 0,
      blockHash: hash,
      signatures: [0, 1, 3].map((i) =>
        signVote(
          chainId,
          { kind: 'precommit', height: 1, round: 0, blockHash: hash, validator: active[i]!.validator },
          active[i]!.privateKey,
        ),
      ),
    };
    assert.equal(await h.service.commitSynced(block, commit), true);
    for (const i of [0, 3])
      assert.equal(
        await net.deliver(
          TOPIC_VOTES,
          vote(active[i]!, { kind: 'prevote', height: 1, round: 1, blockHash: null }),
        ),
        'accept',
      );
    assert.deepEqual(
      net.published.filter((m) => m.topic === TOPIC_BLOCKS),
      [],
      'no proposal built after the height was committed',
    );
  });

  it('a missed slot is explained in the log: the proposer that did not deliver, and its proposal arriving later (once)', async () => {
    const { net, active, proposal, logger } = await setup(0, 50, { ...LONG, propose: () => 30 });
    const timedOut = () => logger.lines.filter((l) => l.msg === 'no proposal in time');
    ticker.advance(29);
    assert.equal(timedOut().length, 0, 'not before the propose timeout');
    ticker.advance(1);
    assert.equal(timedOut().length, 1);
    const [line] = timedOut();
    assert.equal(line!.height, 1);
    assert.equal(line!.round, 0);
    assert.equal(line!.proposer, active[1]!.validator, 'height 1, round 0 is active[1]');
    assert.equal(line!.timerLateMs, 0, 'the manual ticker fires each timer when it is due');
    assert.equal(typeof line!.sinceHeightMs, 'number');
    const block = h.service.buildProposal(active[1]!.privateKey, 0).block;
    const late = () => logger.lines.filter((l) => l.msg === 'proposal after its propose timeout');
    assert.equal(await net.deliver(TOPIC_BLOCKS, proposal(active[1]!, block)), 'accept');
    assert.equal(late().length, 1);
    assert.equal(late()[0]!.proposer, active[1]!.validator);
    assert.equal(await net.deliver(TOPIC_BLOCKS, proposal(active[1]!, block)), 'accept');
    assert.equal(late().length, 1, 'a second copy is not logged again');
  });

  /** Validator 0 with a 30 ms propose timeout and a 1 s start grace; `timedOut` its log of proposals not in time. */
  async function graceSetup() {
    const s = await setup(0, 50, { ...LONG, propose: () => 30 }, null, 1000);
    return { ...s, timedOut: () => s.logger.lines.filter((l) => l.msg === 'no proposal in time') };
  }

  it('the first height after a start waits at least the start grace for its round-0 proposal (nodes started together come up seconds apart), later heights their usual timeout', async () => {
    const { net, active, vote, proposal, timedOut } = await graceSetup();
    ticker.advance(999);
    assert.equal(timedOut().length, 0, 'the proposer of the first height is given the grace, not 30 ms');
    ticker.advance(1);
    assert.equal(timedOut().length, 1, 'and timed out once the grace is over');
    await decideHeightOne(net, active, vote, proposal);
    ticker.advance(0); // height 2 entered at once: height 1 took longer than the block time
    ticker.advance(29);
    assert.equal(timedOut().length, 1, 'height 2: not before its propose timeout');
    ticker.advance(1);
    assert.equal(timedOut().length, 2, 'height 2, entered after the grace: its usual 30 ms');
    assert.equal(timedOut()[1]!.height, 2);
  });

  it("every height entered while the start grace lasts waits it out for its round-0 proposal, not only the first (a quorum of early nodes goes on; the late proposer's turn comes later)", async () => {
    const { net, active, vote, proposal, timedOut } = await graceSetup();
    await decideHeightOne(net, active, vote, proposal); // at once: three peers up, one late
    ticker.advance(50); // height 2 entered after the block time, well inside the grace
    assert.equal(h.service.state.height, 1);
    ticker.advance(899);
    assert.equal(timedOut().length, 0, 'height 2 gives its proposer the rest of the grace, not 30 ms');
    ticker.advance(51);
    assert.equal(timedOut().length, 1, 'and times out once the grace is over');
    assert.equal(timedOut()[0]!.height, 2);
  });

  it('in the first height after a start, no step of round 0 times out before the start grace ends (a validator resumed after its vote waits for peers still starting); then the usual timeouts', async () => {
    const short = { propose: () => 30, prevote: () => 30, precommit: () => 30 };
    const { net, active, vote, proposal } = await setup(0, 50, short, null, 1000);
    const mine = (kind: string) =>
      net.published.filter(
        (p) => p.topic === TOPIC_VOTES && p.json.kind === kind && p.json.validator === active[0]!.validator,
      );
    const block = h.service.buildProposal(active[1]!.privateKey, 0).block;
    assert.equal(await net.deliver(TOPIC_BLOCKS, proposal(active[1]!, block)), 'accept');
    assert.equal(mine('prevote').length, 1, 'it prevoted the block at once');
    for (const k of active.slice(2))
      await net.deliver(TOPIC_VOTES, vote(k, { kind: 'prevote', height: 1, round: 0, blockHash: null }));
    ticker.advance(999);
    assert.equal(
      mine('precommit').length,
      0,
      'more than 2/3 prevotes, split: the prevote timeout waits for the grace',
    );
    ticker.advance(1);
    assert.equal(mine('precommit').length, 1, 'and ends with it');
    for (const k of active.slice(2))
      await net.deliver(TOPIC_VOTES, vote(k, { kind: 'precommit', height: 1, round: 0, blockHash: null }));
    const inRound1 = () => net.published.some((p) => p.json.round === 1);
    ticker.advance(29);
    assert.equal(inRound1(), false, 'past the grace: the usual 30 ms precommit timeout');
    ticker.advance(31); // round 1: its proposal at once, or its nil prevote after its 30 ms
    assert.equal(inRound1(), true);
  });

  /** Height 1 decided here: active[1]'s block, prevoted and precommitted by the other three. */
  async function decideHeightOne(
    net: StubNetwork,
    active: TestKey[],
    vote: Awaited<ReturnType<typeof setup>>['vote'],
    proposal: Awaited<ReturnType<typeof setup>>['proposal'],
  ) {
    const block = h.service.buildProposal(active[1]!.privateKey, 0).block;
    const hash = blockHash(block.header);
    assert.equal(await net.deliver(TOPIC_BLOCKS, proposal(active[1]!, block)), 'accept');
    for (const kind of ['prevote', 'precommit'] as const)
      for (const k of active.slice(1))
        assert.equal(
          await net.deliver(TOPIC_VOTES, vote(k, { kind, height: 1, round: 0, blockHash: hash })),
          'accept',
        );
    await until('height 1 committed', () => h.service.state.height >= 1);
    assert.equal(h.service.state.height, 1);
  }

  it('once the height is committed, a message of the next height is checked and passed on at once, while the node waits out the block time; a forged one is rejected', async () => {
    const { net, active, vote, proposal } = await setup(0, 60_000);
    await decideHeightOne(net, active, vote, proposal);
    // The node now waits a minute (the block time) before it enters height 2.
    const prevote = vote(active[3]!, { kind: 'prevote', height: 2, round: 0, blockHash: null });
    assert.equal(await settled(net.deliver(TOPIC_VOTES, prevote)), 'accept');
    const forged = decodeJson(prevote) as Record<string, unknown>;
    const otherSigner = vote(active[2]!, { kind: 'prevote', height: 2, round: 0, blockHash: null });
    forged.signature = (decodeJson(otherSigner) as Record<string, unknown>).signature;
    assert.equal(
      await settled(net.deliver(TOPIC_VOTES, new TextEncoder().encode(JSON.stringify(forged)))),
      'reject',
    );
  });

  it('a node still deciding a height that sees the next height fetches it by block sync when its own decision does not come', async () => {
    const sync = countingSync();
    const { net, active, vote, logger } = await setup(0, 50, LONG, sync);
    const before = sync.catchUps;
    const early = net.deliver(
      TOPIC_VOTES,
      vote(active[3]!, { kind: 'prevote', height: 2, round: 0, blockHash: null }),
    );
    assert.equal(
      await settled(early),
      PENDING,
      'unverifiable before height 1 is committed: its verdict waits',
    );
    assert.equal(sync.catchUps, before, 'not at once: the decision may be a hop behind');
    ticker.advance(399);
    assert.equal(sync.catchUps, before, 'not within the grace time');
    ticker.advance(1);
    assert.equal(sync.catchUps, before + 1);
    assert.ok(logger.lines.some((l) => l.msg === 'peers are past this height: block sync' && l.height === 1));
  });

  it('a node that has heard nothing of its height since entering it fetches it at once when the next height shows up (it connected after the messages went out); having heard some, it waits', async () => {
    const sync = countingSync();
    const { net, active, vote } = await setup(0, 50, LONG, sync);
    const before = sync.catchUps;
    ticker.advance(500);
    void net.deliver(
      TOPIC_VOTES,
      vote(active[3]!, { kind: 'prevote', height: 2, round: 0, blockHash: null }),
    );
    ticker.advance(0);
    assert.equal(sync.catchUps, before + 1, 'nothing of height 1 heard in 500 ms: no grace');

    await driver.stop();
    await h.close();
    const heard = countingSync();
    const second = await setup(0, 50, LONG, heard);
    const heardBefore = heard.catchUps;
    void second.net.deliver(
      TOPIC_VOTES,
      second.vote(second.active[1]!, { kind: 'prevote', height: 1, round: 0, blockHash: null }),
    );
    ticker.advance(500);
    void second.net.deliver(
      TOPIC_VOTES,
      second.vote(second.active[3]!, { kind: 'prevote', height: 2, round: 0, blockHash: null }),
    );
    ticker.advance(399);
    assert.equal(heard.catchUps, heardBefore, 'a vote of height 1 came: the decision may be a hop behind');
    ticker.advance(1);
    assert.equal(heard.catchUps, heardBefore + 1);
  });

  it('a node still deciding a height that hears nothing of it for a second asks a few peers whether they moved on (it lost their messages; as the next proposer, waiting for the long stall check would cost its slot)', async () => {
    const sync = countingSync();
    await setup(0, 50, LONG, sync);
    const before = sync.catchUps; // the one at start
    ticker.advance(1000);
    assert.equal(sync.catchUps, before, 'not while the height has just begun');
    ticker.advance(250); // the next check, 1250 ms into the silence
    assert.equal(sync.catchUps, before + 1);
    assert.equal(
      sync.askPeers.at(-1),
      4,
      'a few peers, not all: every node asks while a stopped proposer is waited for',
    );
    ticker.advance(1000);
    assert.equal(sync.catchUps, before + 1, 'once a second at most');
    ticker.advance(250);
    assert.equal(sync.catchUps, before + 2, 'and again a second later');
  });

  it('two different signed votes or proposals of one validator for one step are evidence: kept once per pair, counted, logged and served by GET /evidence; a re-sent identical one is not', async () => {
    const { net, active, vote, proposal, logger, chainId } = await setup(0);
    const liar = active[2]!;
    const other = 'cd'.repeat(32);
    const prevoteFor = (hash: string | null) =>
      vote(liar, { kind: 'prevote', height: 1, round: 0, blockHash: hash });
    assert.equal(await net.deliver(TOPIC_VOTES, prevoteFor(null)), 'accept');
    h.clock.now += 7; // a re-send: new sent_at, new bytes on the wire, the same signed vote
    assert.equal(await net.deliver(TOPIC_VOTES, prevoteFor(null)), 'accept');
    assert.deepEqual(
      (await h.request('GET', '/evidence')).json(),
      { evidence: [] },
      'a re-send is no evidence',
    );
    // The second version: authentic, so accepted and passed on (every peer should see both).
    assert.equal(await net.deliver(TOPIC_VOTES, prevoteFor(other)), 'accept');
    for (let i = 0; i < 3; i++) {
      h.clock.now += 1;
      await net.deliver(TOPIC_VOTES, i % 2 ? prevoteFor(other) : prevoteFor(null));
    }
    // Two proposals of the round-0 proposer for one round, with different blocks.
    const proposer = active[1]!;
    const block = h.service.buildProposal(proposer.privateKey, 0).block;
    h.clock.now += 2000;
    const twin = h.service.buildProposal(proposer.privateKey, 0).block;
    assert.notEqual(blockHash(twin.header), blockHash(block.header));
    assert.equal(await net.deliver(TOPIC_BLOCKS, proposal(proposer, block)), 'accept');
    assert.equal(await net.deliver(TOPIC_BLOCKS, proposal(proposer, twin)), 'accept');
    // Each pair is written to the store, counted, then logged: wait for both logs (bounded).
    const warned = () => logger.lines.filter((l) => String(l.msg).startsWith('equivocation'));
    await until('both pairs logged', () => warned().length >= 2);

    const served = (await h.request('GET', '/evidence')).json() as { evidence: Equivocation[] };
    assert.deepEqual(
      served.evidence.map((e) => [e.kind, e.validator, e.height, e.round]),
      [
        ['proposal', proposer.validator, 1, 0],
        ['prevote', liar.validator, 1, 0],
      ],
      'newest first, each pair once',
    );
    const [p, v] = served.evidence as [Equivocation, Equivocation];
    assert.deepEqual(
      [v.first, v.second],
      [
        { block_hash: null, signature: v.first.signature },
        { block_hash: other, signature: v.second.signature },
      ],
      'ordered by sign bytes: nil (zeros) first',
    );
    assert.equal(v.pub_key, liar.pubKey);
    assert.equal(v.chain_id, chainId);
    assert.deepEqual(
      new Set([p.first.block_hash, p.second.block_hash]),
      new Set([blockHash(block.header), blockHash(twin.header)]),
    );
    assert.equal(p.first.pol_round, -1);
    for (const e of served.evidence) assert.ok(isProvenEquivocation(e), `${e.kind}: both signatures check`);
    const metrics = (await h.request('GET', '/metrics')).text;
    assert.match(
      metrics,
      new RegExp(`^chain_equivocations_total\\{validator="${liar.validator}"\\} 1$`, 'm'),
    );
    assert.match(
      metrics,
      new RegExp(`^chain_equivocations_total\\{validator="${proposer.validator}"\\} 1$`, 'm'),
    );
    assert.deepEqual(
      warned().map((l) => [l.level, l.kind, l.validator]),
      [
        ['warn', 'prevote', liar.validator],
        ['warn', 'proposal', proposer.validator],
      ],
    );
  });
});

/**
 * Safety against double-signing, with real processes over libp2p on 127.0.0.1 (issue 13):
 *   - a validator killed with SIGKILL right after it proposed and prevoted, and restarted at
 *     once, signs nothing that conflicts with what it signed before (its priv-validator state);
 *     the other nodes see no second version and keep no evidence, and the chain goes on;
 *   - the same right after it prevoted and precommitted a block (killed by the test-only fail
 *     point as soon as its lock is on disk): it resumes locked with the block, and goes on;
 *   - with one Byzantine validator of four (`--byzantine equivocate`), the honest nodes finalize
 *     the same block at every height, keep going, and each reports the equivocation.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { createLogger } from '@chain-devnet/kit/log';
import { waitFor } from '@chain-devnet/kit/wait';
import type { Proposal } from '../../src/chain/index.js';
import { type Equivocation, isProvenEquivocation, type Vote } from '../../src/chain/index.js';
import { decodeProposal, decodeVote } from '../../src/p2p/messages.js';
import { P2PNetwork } from '../../src/p2p/network.js';
import { peerKeyFromSeed } from '../../src/p2p/peerKey.js';
import { TOPIC_BLOCKS, TOPIC_VOTES } from '../../src/p2p/protocol.js';
import { Cluster } from '../support/cluster.js';

/** A peer that records every proposal and vote gossiped to it, and passes nothing on. */
async function listener(bootstrap: string) {
  const heard: (Proposal | Vote)[] = [];
  const net = await P2PNetwork.start({
    privateKey: await peerKeyFromSeed(new TextEncoder().encode('safety-listener')),
    listenHost: '127.0.0.1',
    listenPort: 0,
    bootstrap: [bootstrap],
    logger: createLogger({ level: 'error' }),
  });
  for (const [topic, decode] of [
    [TOPIC_BLOCKS, decodeProposal],
    [TOPIC_VOTES, decodeVote],
  ] as const)
    net.subscribe(topic, (data) => {
      const m = decode(data);
      if (typeof m !== 'string') heard.push(m);
      return 'ignore';
    });
  try {
    await waitFor('the listener to connect', 10_000, async () =>
      net.connectedPeers().length > 0 ? true : null,
    );
  } catch (e) {
    await net.stop();
    throw e;
  }
  return { net, heard };
}

/** Pairs of messages `heard` holds from `validator` for one step with different signed contents. */
function conflicts(heard: readonly (Proposal | Vote)[], validator: string): string[] {
  const first = new Map<string, string>();
  const out: string[] = [];
  for (const m of heard) {
    const isVote = 'kind' in m;
    if ((isVote ? m.validator : m.proposer) !== validator) continue;
    const step = `${isVote ? m.kind : 'proposal'} at height ${m.height} round ${m.round}`;
    const signed = isVote ? String(m.blockHash) : `${m.blockHash}/${m.polRound}`;
    const seen = first.get(step);
    if (seen === undefined) first.set(step, signed);
    else if (seen !== signed) out.push(`${step}: ${seen} and ${signed}`);
  }
  return [...new Set(out)];
}

const evidenceOf = async (c: Cluster, i: number) =>
  (await c.nodes[i]!.client.get<{ evidence: Equivocation[] }>('/evidence')).evidence;

const metricValue = (text: string, name: string, validator: string) =>
  Number(new RegExp(`^${name}\\{validator="${validator}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

describe('a validator restarted right after signing', () => {
  let c: Cluster;
  after(() => c?.stopAll());

  it('signs nothing conflicting after a SIGKILL and restart (checked on what the others receive), and the chain goes on once the stopped validators return', async () => {
    c = await Cluster.create(4, 250);
    const order = c.activeOrder();
    // Height 1, round 0 is active[1]'s: the victim. With only it and one other up, the height
    // cannot be decided: the victim proposes, prevotes, and waits.
    const victim = order[1]!;
    const witness = order[0]!;
    const stopped = [order[2]!, order[3]!];
    const v = c.nodes[victim]!;
    c.start(witness);
    await waitFor(`${c.nodes[witness]!.name} to listen for peers`, 20_000, async () =>
      (await readFile(c.logPath(witness), 'utf8')).includes('"p2p listening"') ? true : null,
    );
    const ear = await listener(c.nodes[witness]!.multiaddr);
    try {
      await new Promise((r) => setTimeout(r, 1500)); // the listener's subscriptions exchanged
      c.start(victim);
      const isMine = (m: Proposal | Vote) => ('kind' in m ? m.validator : m.proposer) === v.validatorAddress;
      const first = await waitFor('the victim to propose and prevote at height 1', 30_000, async () => {
        const mine = ear.heard.filter(isMine);
        const proposal = mine.find((m): m is Proposal => !('kind' in m) && m.height === 1 && m.round === 0);
        const prevoted = mine.some(
          (m) => 'kind' in m && m.kind === 'prevote' && m.height === 1 && m.round === 0,
        );
        return proposal !== undefined && prevoted ? proposal : null;
      });
      // A block built again after a restart differs once the clock has passed the first block's
      // second (its timestamp): that new proposal is what a validator without its state signs.
      await waitFor('the next second', 2000, async () =>
        Math.floor(Date.now() / 1000) > first.block.header.timestamp ? true : null,
      );
      await c.stop(victim, 'SIGKILL');
      c.start(victim);
      await waitFor(`${v.name} to answer again`, 20_000, () => v.client.status());
      // Time to propose and vote again at height 1 (a node without its state does it at once).
      await new Promise((r) => setTimeout(r, 2000));
      for (const i of stopped) c.start(i);
      await c.waitForHeight(3);
      await c.assertAgreement(3);

      assert.deepEqual(
        conflicts(ear.heard, v.validatorAddress),
        [],
        `${v.name} signed two versions of a step (seen by a peer of ${c.nodes[witness]!.name})`,
      );
      assert.ok(ear.heard.filter(isMine).length >= 2, 'the listener heard the victim');
      for (let i = 0; i < c.nodes.length; i++)
        if (i !== victim)
          assert.deepEqual(
            (await evidenceOf(c, i)).map((e) => `${e.kind} ${e.height}/${e.round} by ${e.validator}`),
            [],
            `${c.nodes[i]!.name} holds no evidence`,
          );
      const loaded = (await readFile(c.logPath(victim), 'utf8'))
        .split('\n')
        .filter((l) => l.includes('"priv-validator state loaded"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(
        loaded.map((l) => [l.height, l.round, l.step]),
        [[1, 0, 'prevote']],
        'the restart read back its proposal and prevote of height 1',
      );
    } finally {
      await ear.net.stop();
    }
  });
});

describe('a validator killed right after it prevoted and precommitted', () => {
  let c: Cluster;
  after(() => c?.stopAll());

  it('resumes locked on that block, signs nothing conflicting (checked on what the others receive), and votes again as the chain goes on', async () => {
    c = await Cluster.create(4, 250);
    const victim = 0;
    const v = c.nodes[victim]!;
    const others = [1, 2, 3];
    for (const i of others) c.start(i);
    await c.waitForHeight(2, others);
    const ear = await listener(c.nodes[1]!.multiaddr);
    try {
      await new Promise((r) => setTimeout(r, 1500)); // the listener's subscriptions exchanged
      v.args = ['--fail-point', 'lock-recorded'];
      c.start(victim);
      assert.deepEqual(
        await v.program!.exited,
        { code: null, signal: 'SIGKILL' },
        'killed at its first lock, before its precommit left',
      );
      const state = JSON.parse(await readFile(`${v.home}/priv_validator_state.json`, 'utf8')) as {
        height: number;
        round: number;
        step: string;
        lock: { height: number; round: number };
      };
      assert.equal(state.step, 'precommit');
      assert.deepEqual([state.lock.height, state.lock.round], [state.height, state.round]);
      v.args = [];
      c.start(victim);
      const target = state.height + 4;
      await c.waitForHeight(target);
      await c.assertAgreement(target);

      assert.deepEqual(
        conflicts(ear.heard, v.validatorAddress),
        [],
        `${v.name} signed two versions of a step (seen by a peer of ${c.nodes[1]!.name})`,
      );
      assert.ok(
        ear.heard.some((m) => 'kind' in m && m.validator === v.validatorAddress && m.height > state.height),
        `${v.name} votes again above height ${state.height}`,
      );
      for (const i of others)
        assert.deepEqual(await evidenceOf(c, i), [], `${c.nodes[i]!.name} holds no evidence`);
      const loaded = (await readFile(c.logPath(victim), 'utf8'))
        .split('\n')
        .filter((l) => l.includes('"priv-validator state loaded"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(
        loaded.map((l) => [l.height, l.step, l.locked_block_kept]),
        [[state.height, 'precommit', true]],
        'the restart read back its precommit, its lock and the locked block',
      );
    } finally {
      await ear.net.stop();
    }
  });
});

describe('one Byzantine validator of four', () => {
  let c: Cluster;
  after(() => c?.stopAll());

  it('honest nodes finalize the same block at every height, keep going, and each reports the equivocation', async () => {
    c = await Cluster.create(4, 300);
    const order = c.activeOrder();
    const byzantine = order[3]!;
    const honest = order.filter((i) => i !== byzantine);
    const liar = c.nodes[byzantine]!.validatorAddress;
    c.nodes[byzantine]!.args = ['--byzantine', 'equivocate'];
    c.startAll();
    // 20 heights: the Byzantine validator is the round-0 proposer of every 4th (5 of them).
    const target = 20;
    await c.waitForHeight(target, [...honest, byzantine], 120_000);
    await c.assertAgreement(target, [...honest, byzantine]);

    for (const i of honest) {
      const name = c.nodes[i]!.name;
      const evidence = await evidenceOf(c, i);
      assert.ok(evidence.length > 0, `${name} reports evidence`);
      for (const e of evidence) {
        assert.equal(e.validator, liar, `${name}: only the Byzantine validator equivocated`);
        assert.ok(isProvenEquivocation(e), `${name}: ${e.kind} ${e.height}/${e.round} checks`);
      }
      const kinds = new Set(evidence.map((e) => e.kind));
      for (const kind of ['proposal', 'prevote', 'precommit'] as const)
        assert.ok(kinds.has(kind), `${name} saw it equivocate on ${kind}s (${[...kinds]})`);
      const proposalHeights = new Set(evidence.filter((e) => e.kind === 'proposal').map((e) => e.height));
      assert.ok(
        proposalHeights.size >= 3,
        `${name}: two proposals at ${proposalHeights.size} of its heights`,
      );
      // Read after the evidence, which may have grown since: at least as many.
      const metrics = await (await fetch(`http://127.0.0.1:${c.nodes[i]!.rpcPort}/metrics`)).text();
      assert.ok(
        metricValue(metrics, 'chain_equivocations_total', liar) >= evidence.length,
        `${name}: chain_equivocations_total counts each kept pair`,
      );
    }
  });
});

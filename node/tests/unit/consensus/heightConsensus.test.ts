/** The consensus core in a simulated network: agreement, liveness past a dead proposer, safety under partitions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activeValidators,
  applyBlock,
  blockHash,
  buildBlock,
  type ChainState,
  signProposal,
  signVote,
} from '../../../src/chain/index.js';
import { HeightConsensus } from '../../../src/consensus/heightConsensus.js';
import { DEFAULT_TIMEOUTS } from '../../../src/consensus/types.js';
import { CheckedSigner } from '../../../src/privval/checkedSigner.js';
import type { LastSigned } from '../../../src/privval/privValidatorState.js';
import { NEVER_SIGNED } from '../../../src/privval/privValidatorState.js';
import { genesisState, key, TestChain } from '../../fixtures.js';
import { Simulation } from './simulation.js';

const LABELS = ['val-0', 'val-1', 'val-2', 'val-3'];

function stateAt(height: number): ChainState {
  const chain = new TestChain({ validators: LABELS });
  chain.produceUntil(height);
  return chain.state;
}

function agreed(sim: Simulation, live: number): string {
  assert.equal(
    sim.decisions.length,
    live,
    `every live node decided: ${JSON.stringify(sim.decisions.map((d) => d.node))}`,
  );
  const hashes = new Set(sim.decisions.map((d) => d.hash));
  assert.equal(hashes.size, 1, 'all decided the same block');
  return [...hashes][0]!;
}

/** The (height, round, step) that `signed` holds two different signatures for (double-signing). */
function doubleSigned(signed: readonly LastSigned[]): string[] {
  const first = new Map<string, string>();
  const out: string[] = [];
  for (const s of signed) {
    const at = `${s.height}/${s.round}/${s.step}`;
    const bytes = first.get(at);
    if (bytes === undefined) first.set(at, s.signBytes);
    else if (bytes !== s.signBytes) out.push(at);
  }
  return out;
}

describe('HeightConsensus', () => {
  it('decides the round-0 proposer block on every node when all are up', () => {
    const state = genesisState({ validators: LABELS });
    const sim = new Simulation(state, LABELS);
    sim.run();
    agreed(sim, 4);
    const d = sim.decisions[0]!;
    assert.equal(d.round, 0);
    assert.equal(
      d.block.header.proposerAddress,
      activeValidators(state)[1 % 4]!.address,
      'height 1 is active[1]',
    );
    assert.doesNotThrow(() => applyBlock(state, d.block));
  });

  it("a pair locked on a block and a restarted pair that forgot it still decide (the lock's prevotes are re-sent)", () => {
    // Height 1: node 1 proposes. Everyone prevotes for it, but only nodes 0 and 3 see the
    // prevotes: they lock on the block and precommit (2 precommits, no decision). Nodes 1 and 2
    // then crash and come back with nothing. The locked pair refuses any other block; the
    // returning pair accepts the re-proposal only with the round-0 prevotes in hand.
    const returning = new Set([1, 2]);
    const sim = new Simulation(genesisState({ validators: LABELS }), LABELS, {
      link: (_from, to, at) => (returning.has(to) && at >= 5 && at < 3000 ? null : 5),
    });
    sim.run(20);
    assert.equal(sim.decisions.length, 0);
    for (const i of returning) {
      sim.crash(i);
      sim.restartAt(i, 3000);
    }
    sim.run(120_000);
    const hash = agreed(sim, 4);
    assert.equal(
      sim.decisions.find((d) => d.node === 0)!.block.header.round,
      0,
      'the round-0 block, as locked',
    );
    assert.ok(hash.length === 64);
  });

  it('decides alone when it is the only validator', () => {
    const sim = new Simulation(genesisState({ validators: ['val-0'] }), ['val-0']);
    sim.run();
    agreed(sim, 1);
  });

  it('skips a dead proposer: round 1 decides a block of the next validator, and the slot counts as missed', () => {
    const state = stateAt(2);
    const dead = 3 % 4; // proposer of height 3, round 0
    const sim = new Simulation(state, LABELS, { down: [dead] });
    sim.run();
    agreed(sim, 3);
    const d = sim.decisions[0]!;
    assert.equal(d.block.header.round, 1);
    assert.equal(d.block.header.proposerAddress, activeValidators(state)[(3 + 1) % 4]!.address);
    const next = applyBlock(state, d.block).state;
    assert.equal(next.validators.get(activeValidators(state)[dead]!.address)!.slotsMissed, 1);
  });

  it('halts with 2 of 4 down, and never decides', () => {
    const sim = new Simulation(genesisState({ validators: LABELS }), LABELS, { down: [0, 1] });
    sim.run(30_000);
    assert.equal(sim.decisions.length, 0);
  });

  it('a 2/2 partition decides nothing, and after it heals all decide one block', () => {
    const healAt = 20_000;
    const sim = new Simulation(genesisState({ validators: LABELS }), LABELS, {
      link: (from, to, at) => (at < healAt && from < 2 !== to < 2 ? null : 5),
    });
    sim.run(healAt - 1);
    assert.equal(sim.decisions.length, 0, 'no decision while split');
    sim.run(120_000);
    agreed(sim, 4);
  });

  // 21 validators (the testnet maximum), each linked to the 4 nearest on a ring: a message
  // reaches the farthest node in 5 hops, relayed by the nodes between as gossipsub does.
  const LABELS_21 = Array.from({ length: 21 }, (_x, i) => `val-${i}`);
  const ring = (i: number) => [1, 2, 19, 20].map((d) => (i + d) % 21);

  it('21 validators over a gossip mesh decide the round-0 block, and none re-sends while it keeps moving', () => {
    const sim = new Simulation(genesisState({ validators: LABELS_21 }), LABELS_21, {
      peers: ring,
      link: () => 100,
    });
    sim.run();
    agreed(sim, 21);
    assert.equal(sim.decisions[0]!.round, 0);
    assert.ok(
      sim.decisions.every((d) => d.at > 1000),
      'a height longer than the re-send period',
    );
    // Each node took a step at least every half second: nothing to re-send (re-sending every
    // second regardless, each node sent its votes and the 15+ prevotes of its valid block again).
    assert.deepEqual(
      sim.resent.filter((n) => n > 0),
      [],
    );
  });

  it('21 validators over a gossip mesh with 10% of the copies lost decide one block (20 seeded runs)', () => {
    const state = genesisState({ validators: LABELS_21 });
    for (let seed = 1; seed <= 20; seed++) {
      let s = seed;
      const rand = () => {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        return s / 0x7fffffff;
      };
      const sim = new Simulation(state, LABELS_21, {
        peers: ring,
        link: () => (rand() < 0.1 ? null : 20 + Math.floor(rand() * 200)),
      });
      sim.run(200_000);
      assert.equal(new Set(sim.decisions.map((d) => d.hash)).size, 1, `seed ${seed}: one block`);
      assert.equal(sim.decisions.length, 21, `seed ${seed}: every node decided`);
    }
  });

  it('never decides two different blocks, and always decides once links recover, whatever the order, delays and losses (200 seeded runs)', () => {
    const state = genesisState({ validators: LABELS });
    for (let seed = 1; seed <= 200; seed++) {
      let s = seed;
      const rand = () => {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        return s / 0x7fffffff;
      };
      const partitionEnds = rand() * 10_000;
      const sim = new Simulation(state, LABELS, {
        link: (from, to, at) => {
          if (at < partitionEnds && (from + to + seed) % 3 === 0) return null;
          if (rand() < 0.1) return null;
          return Math.floor(rand() * 800);
        },
      });
      sim.run(200_000);
      const hashes = new Set(sim.decisions.map((d) => d.hash));
      assert.ok(hashes.size <= 1, `seed ${seed}: two different blocks decided`);
      assert.equal(sim.decisions.length, 4, `seed ${seed}: every node decided despite 10% loss`);
    }
  });

  it('a proposer restarted right after its proposal and prevote signs nothing conflicting when it keeps its priv-validator state (and double-signs when it does not)', () => {
    // Height 1: node 1 proposes. Nodes 2 and 3 are down (a halt), so node 1 signs its proposal
    // and its prevote and waits. It crashes and restarts; its new block has another timestamp.
    // Nodes 2 and 3 come back later and the height is decided.
    const run = (keep: boolean) => {
      const sim = new Simulation(genesisState({ validators: LABELS }), LABELS);
      sim.crash(2);
      sim.crash(3);
      sim.run(20);
      assert.deepEqual(
        sim.signed[1]!.map((s) => s.step),
        ['propose', 'prevote'],
      );
      sim.crash(1);
      sim.restartAt(1, 3000, keep);
      sim.restartAt(2, 6000);
      sim.restartAt(3, 6000);
      sim.run(120_000);
      return sim;
    };
    const kept = run(true);
    assert.deepEqual(doubleSigned(kept.signed[1]!), []);
    assert.deepEqual(kept.refused[1], [], 'it resumed after its prevote: nothing below it was even asked');
    agreed(kept, 4);
    // The control: the same run with the state lost signs a second proposal for (1, 0).
    const forgot = run(false);
    assert.deepEqual(doubleSigned(forgot.signed[1]!), ['1/0/propose', '1/0/prevote']);
  });

  it('a lone validator killed after its precommit and before storing the block decides that block when it restarts (it kept the block with its lock)', () => {
    // It decided B in its memory only: the crash took B before the store. Restarted at the same
    // height, it resumes locked on B. Without B it could neither re-propose B nor prevote another
    // block: the height would go round after round for ever.
    const run = (dropLockedBlock: boolean) => {
      const sim = new Simulation(genesisState({ validators: ['val-0'] }), ['val-0']);
      sim.run();
      const b = sim.decisions[0]!.hash;
      sim.crash(0);
      // (It proposed B too: the proposal it kept would give B back as well, so the control loses both.)
      sim.restartAt(0, 100, true, dropLockedBlock, !dropLockedBlock);
      sim.run(60_000);
      return { sim, b };
    };
    const { sim, b } = run(false);
    assert.deepEqual(
      sim.decisions.map((d) => d.hash),
      [b, b],
      'decided B again after the restart',
    );
    assert.deepEqual(sim.refused[0], [], 'it was asked to sign nothing conflicting');
    // The control: the same restart with the lock but not its block never decides.
    const lost = run(true);
    assert.equal(lost.sim.decisions.length, 1, 'no decision after the restart without the block');
    assert.ok(
      lost.sim.signed[0]!.some((s) => s.round >= 5),
      'it went round after round, prevoting nil',
    );
  });

  it('two validators restarted after precommitting a block that one node decided keep their lock, so no other block is decided (amnesia decides another)', () => {
    // Height 1, round 0: node 1 proposes B; node 2 never receives it. Nodes 0, 1 and 3 prevote B,
    // lock on it and precommit it; node 0 receives the precommits, decides B, and is cut off.
    // Nodes 1 and 3 crash and restart. Forgetting their lock, they and node 2 are three of four
    // unlocked validators: they decide another block, and two nodes have final blocks that
    // differ. Keeping it (and its block), they prevote no other block, re-propose B, and the
    // three decide B too.
    const run = (keep: boolean) => {
      const sim = new Simulation(genesisState({ validators: LABELS }), LABELS, {
        link: (from, to, at, m) => {
          if (from === 0 && at >= 10) return null;
          if (to === 2 && m.kind === 'proposal' && m.proposal.round === 0) return null;
          return 5;
        },
      });
      sim.run(1200);
      assert.deepEqual(
        sim.decisions.map((d) => d.node),
        [0],
        'node 0 decided B, alone',
      );
      for (const i of [1, 3]) {
        sim.crash(i);
        sim.restartAt(i, 3200, keep);
      }
      sim.run(60_000);
      return sim;
    };
    const kept = run(true);
    const b = kept.decisions[0]!.hash;
    assert.deepEqual(new Set(kept.decisions.map((d) => d.hash)), new Set([b]), 'B is the only final block');
    assert.deepEqual(
      kept.decisions.map((d) => d.node).sort(),
      [0, 1, 2, 3],
      'the restarted pair re-proposed B and every node decided it',
    );
    for (const i of [1, 3]) {
      assert.deepEqual(doubleSigned(kept.signed[i]!), [], `node ${i}`);
      const prevoted = kept.signed[i]!.filter((s) => s.step === 'prevote' && s.blockHash !== null);
      assert.ok(
        prevoted.every((s) => s.blockHash === b),
        `node ${i} prevoted no block but B`,
      );
    }
    const forgot = run(false);
    assert.equal(new Set(forgot.decisions.map((d) => d.hash)).size, 2, 'amnesia: two different final blocks');
  });

  it('a validator whose signer refuses sends and counts nothing for that step, and the height still goes on by timeouts', () => {
    // Node 1 (the round-0 proposer) refuses everything it is asked to sign at round 0.
    const sim = new Simulation(genesisState({ validators: LABELS }), LABELS, {
      refuse: (i, r) => i === 1 && r.round === 0,
    });
    sim.run();
    agreed(sim, 4);
    assert.equal(sim.decisions[0]!.round, 1, 'round 0 had no proposal: decided in round 1');
    assert.ok(
      sim.refused[1]!.length >= 3,
      `node 1 refused its proposal and votes of round 0 (${sim.refused[1]})`,
    );
    assert.ok(
      sim.signed[1]!.every((s) => s.round >= 1),
      'node 1 signed nothing at round 0',
    );
    const sentAtRound0 = sim.sent[1]!.filter(
      (m) => (m.kind === 'vote' ? m.vote.round : m.proposal.round) === 0,
    );
    assert.deepEqual(sentAtRound0, [], 'node 1 sent nothing at round 0');
  });

  it('one Byzantine validator of four that equivocates on every proposal and vote neither splits nor stops the honest three (200 seeded schedules)', () => {
    const state = genesisState({ validators: LABELS });
    const everyone = (i: number) => [0, 1, 2, 3].filter((j) => j !== i);
    for (const byzantine of [0, 1, 2, 3]) {
      for (let seed = 1; seed <= 50; seed++) {
        let s = seed * 7919 + byzantine;
        const rand = () => {
          s = (s * 1103515245 + 12345) & 0x7fffffff;
          return s / 0x7fffffff;
        };
        const sim = new Simulation(state, LABELS, {
          byzantine,
          peers: everyone,
          link: () => 5 + Math.floor(rand() * 400),
        });
        sim.run(300_000);
        const honest = sim.decisions.filter((d) => d.node !== byzantine);
        assert.equal(
          new Set(honest.map((d) => d.hash)).size,
          1,
          `byzantine ${byzantine}, seed ${seed}: one block`,
        );
        assert.equal(
          new Set(honest.map((d) => d.node)).size,
          3,
          `byzantine ${byzantine}, seed ${seed}: every honest node decided (${honest.map((d) => d.node)})`,
        );
      }
    }
  });

  it('a node that received one version of an equivocating proposal first still locks on and precommits the other when the prevotes settle on it', () => {
    const state = genesisState({ validators: LABELS });
    const validators = activeValidators(state);
    const keys = validators.map((v) => LABELS.map(key).find((k) => k.validator === v.address)!);
    const chainId = state.params.chainId;
    const liar = keys[1]!; // the round-0 proposer of height 1
    const proposalOf = (timestamp: number) => {
      const block = buildBlock(state, [], { timestamp, round: 0, privateKey: liar.privateKey }).block;
      const base = { height: 1, round: 0, polRound: -1, blockHash: blockHash(block.header) };
      return {
        ...base,
        block,
        proposer: liar.validator,
        signature: signProposal(chainId, base, liar.privateKey),
      };
    };
    const [first, second] = [proposalOf(state.lastTimestamp + 1), proposalOf(state.lastTimestamp + 2)];
    const me = keys[0]!;
    const core = new HeightConsensus({
      chainId,
      height: 1,
      validators,
      signer: new CheckedSigner(me.privateKey, NEVER_SIGNED, {
        persist: () => undefined,
        onRefusal: () => undefined,
      }),
      isValid: () => true,
      build: () => assert.fail('not the proposer'),
      timeouts: DEFAULT_TIMEOUTS,
    });
    core.start();
    const prevoted = core.onProposal(first);
    assert.deepEqual(
      prevoted.map((a) => (a.kind === 'broadcast-vote' ? a.vote.blockHash : a.kind)),
      [first.blockHash],
    );
    assert.deepEqual(core.onProposal(second), [], 'the second version changes nothing yet');
    const prevote = (k: (typeof keys)[number]) =>
      signVote(
        chainId,
        { kind: 'prevote', height: 1, round: 0, blockHash: second.blockHash, validator: k.validator },
        k.privateKey,
      );
    core.onVote(prevote(keys[2]!));
    const out = core.onVote(prevote(keys[3]!)).concat(core.onVote(prevote(liar)));
    const precommit = out.find((a) => a.kind === 'broadcast-vote' && a.vote.kind === 'precommit');
    assert.equal(
      precommit?.kind === 'broadcast-vote' ? precommit.vote.blockHash : null,
      second.blockHash,
      'a polka for the version it did not prevote: it locks on it and precommits it',
    );
  });
});

/**
 * A whole network stopped in the middle of a height and started again (a devnet paused, a chain
 * restarted): every validator resumes from its priv-validator state, and the height is decided in
 * the round it was in, by its proposer's block, with no slot missed. The proposer cannot sign a
 * second proposal for that round; it sends again the one it kept (consensus/signer.ts,
 * KeptProposal). Without it the round could only time out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { genesisState } from '../../fixtures.js';
import { type Message, Simulation } from './simulation.js';

const LABELS = ['val-0', 'val-1', 'val-2', 'val-3'];
/** The round-0 proposer of height 1 with these four validators. */
const PROPOSER = 1;

/**
 * Runs until `stopAt` with `drop` losing the messages sent before it, stops every node, and
 * resumes them all at 5 s, each from its priv-validator state (with or without its kept proposal).
 * `stopBeforeOwnPrevote`: the proposer stops between recording its proposal and its prevote.
 */
function stopAndResume(
  stopAt: number,
  drop: (m: Message) => boolean,
  o: { keepProposal?: boolean; stopBeforeOwnPrevote?: boolean } = {},
): Simulation {
  let now = () => 0;
  const sim = new Simulation(genesisState({ validators: LABELS }), LABELS, {
    link: (_from, _to, at, m) => (at < stopAt && drop(m) ? null : 5),
    // A signature refused before the stop is one the node never got to: it stopped first.
    refuse: (i, req) =>
      (o.stopBeforeOwnPrevote ?? false) && i === PROPOSER && req.step === 'prevote' && now() < stopAt,
  });
  now = () => sim.now;
  sim.run(stopAt);
  assert.deepEqual(sim.decisions, [], 'nothing decided before the stop');
  for (let i = 0; i < LABELS.length; i++) {
    sim.crash(i);
    sim.restartAt(i, 5000, true, false, o.keepProposal ?? true);
  }
  sim.run(120_000);
  return sim;
}

describe('a network stopped whole in the middle of a height', () => {
  it('stopped right after the proposer recorded its proposal, before it sent it: resumed, every node decides that block in round 0', () => {
    const sim = stopAndResume(3, () => true, { stopBeforeOwnPrevote: true });
    const proposed = sim.signed[PROPOSER]!.filter((s) => s.step === 'propose');
    assert.equal(proposed.length, 1, 'one proposal signed, before the stop');
    assert.deepEqual(
      sim.decisions.map((d) => [d.round, d.hash]),
      LABELS.map(() => [0, proposed[0]!.blockHash]),
    );
    assert.deepEqual(
      sim.refused[PROPOSER],
      ['refuse'],
      'after the resume it was asked to sign nothing conflicting',
    );
    // The control: a proposer that kept no proposal builds another block (another timestamp),
    // which it may not sign, and the round times out.
    const lost = stopAndResume(3, () => true, { keepProposal: false, stopBeforeOwnPrevote: true });
    assert.deepEqual(lost.refused[PROPOSER], ['refuse', 'conflict']);
    assert.ok(lost.decisions.every((d) => d.round > 0));
  });

  it('stopped after the proposer sent its proposal and prevote, which were lost: resumed, every node decides that block in round 0', () => {
    const sim = stopAndResume(3, () => true);
    const proposed = sim.signed[PROPOSER]!.filter((s) => s.step === 'propose');
    assert.deepEqual(
      sim.decisions.map((d) => [d.round, d.hash]),
      LABELS.map(() => [0, proposed[0]!.blockHash]),
    );
    const lost = stopAndResume(3, () => true, { keepProposal: false });
    assert.ok(lost.decisions.every((d) => d.round > 0));
  });

  it('stopped after every node prevoted the block and before a polka was seen: the peers, who lost the block, get it again and decide it in round 0', () => {
    const sim = stopAndResume(200, (m) => m.kind === 'vote');
    const proposed = sim.signed[PROPOSER]!.find((s) => s.step === 'propose')!;
    for (let i = 0; i < LABELS.length; i++)
      assert.ok(
        sim.signed[i]!.some(
          (s) => s.step === 'prevote' && s.round === 0 && s.blockHash === proposed.blockHash,
        ),
        `node ${i} prevoted the block before the stop`,
      );
    assert.deepEqual(
      sim.decisions.map((d) => [d.round, d.hash]),
      LABELS.map(() => [0, proposed.blockHash]),
    );
    const lost = stopAndResume(200, (m) => m.kind === 'vote', { keepProposal: false });
    assert.ok(
      lost.decisions.every((d) => d.round > 0),
      'without it, no node can precommit a block it lost',
    );
  });
});

/**
 * The seed search's parts: a drawn schedule written as a scenario file replays on the simulation
 * to the very run of the seed (the same fingerprint: the file drives the cluster through the same
 * calls), and shrinking keeps only what the failure needs (fewer faults, fewer validators).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DRAWN_KINDS, drawByzantine, type SimFault, simulate } from '@chain-devnet/node/sim';
import { stringify as toYaml } from 'yaml';
import { parseScenarioText } from '../../../src/scenario/parse.js';
import { DEFAULT_SEARCH, seedOptions, shrink } from '../../../src/scenario/seedSearch.js';
import { shrunkScenario } from '../../../src/scenario/shrunkScenario.js';
import { runScenarioOnSim } from '../../../src/scenario/simRun.js';
import type { Manifest } from '../../../src/spec/manifest.js';

const quiet = () => undefined;

describe('seed search', () => {
  test('a drawn schedule written as a scenario file replays to the same run: the same fingerprint', async () => {
    for (const seed of ['replay-0', 'replay-1']) {
      const options = seedOptions(DEFAULT_SEARCH, seed);
      const run = await simulate(options);
      assert.deepEqual(run.failures, []);
      assert.ok(run.faults.length > 0);
      const file = shrunkScenario({ ...options, faults: run.faults }, 'none', 'a test');
      const scenario = await parseScenarioText(toYaml(file), `${file.name}.yaml`, '.');
      const replay = await runScenarioOnSim(scenario, seed, quiet);
      assert.equal(replay.ok, true, JSON.stringify(replay.cases.filter((c) => c.outcome === 'failed')));
      assert.equal(replay.fingerprint, run.fingerprint, `seed ${seed}: the file's run is not the seed's`);
    }
  });

  test('every kind drawn (clocks, links, disks too); a schedule without its ends still replays: the file undoes what healAll does', async () => {
    const every = { ...DEFAULT_SEARCH, draw: { ...DEFAULT_SEARCH.draw, kinds: DRAWN_KINDS } };
    const options = seedOptions(every, 'kinds');
    const drawn = await simulate(options);
    const kinds = new Set(drawn.faults.map((f) => f.kind));
    for (const k of ['skew', 'links', 'disk'])
      assert.ok(kinds.has(k as SimFault['kind']), `${k} drawn: ${[...kinds]}`);
    const isEnd = (f: SimFault) =>
      f.kind === 'restart' ||
      f.kind === 'unpause' ||
      f.kind === 'heal' ||
      (f.kind === 'skew' && f.ms === 0) ||
      (f.kind === 'links' && f.links.length === 0) ||
      (f.kind === 'disk' && !f.faults.full && f.faults.writeDelayMs === 0 && !f.faults.loseUnsynced);
    const starts = { ...options, faults: drawn.faults.filter((f) => !isEnd(f)) };
    const run = await simulate(starts);
    const file = shrunkScenario(starts, 'none', 'a test');
    const scenario = await parseScenarioText(toYaml(file), `${file.name}.yaml`, '.');
    const replay = await runScenarioOnSim(scenario, 'kinds', quiet);
    assert.equal(replay.fingerprint, run.fingerprint, "the file's run is not the schedule's");
    assert.equal(replay.ok, run.failures.length === 0, JSON.stringify(run.failures));
  });

  test('shrinking keeps the faults and the validators the failure needs, and no more', async () => {
    const faults: SimFault[] = [
      { atMs: 2000, kind: 'crash', node: 'validator-1' },
      { atMs: 3000, kind: 'pause', node: 'validator-2' },
      { atMs: 4000, kind: 'partition', group: ['validator-3'], oneWay: false },
      { atMs: 5000, kind: 'restart', node: 'validator-1' },
      { atMs: 6000, kind: 'unpause', node: 'validator-2' },
      { atMs: 7000, kind: 'heal' },
    ];
    const options = { ...seedOptions(DEFAULT_SEARCH, 'shrink'), heights: 10, faults };
    // The failure kept: validator-1 crashed at some point (a stand-in for a bug that needs it).
    const crashesOne = (r: { faults: readonly SimFault[] }) =>
      r.faults.some((f) => f.kind === 'crash' && f.node === 'validator-1');
    const first = await simulate(options);
    const shrunk = await shrink(options, first, 40, crashesOne);
    assert.deepEqual(shrunk.options.faults, [{ atMs: 2000, kind: 'crash', node: 'validator-1' }]);
    assert.equal(shrunk.options.validators, 2, 'validator-1 needs two validators; the others went');
    assert.ok(shrunk.runs <= 40);
  });

  test('a seed that draws a Byzantine validator: its file lists it in its place and replays; a shrink keeps it only when the failure needs it', async () => {
    const seed = Array.from({ length: 20 }, (_, i) => `liar-${i}`).find(
      (s) => Object.keys(drawByzantine(s, 4)).length > 0,
    )!;
    const options = {
      ...seedOptions({ ...DEFAULT_SEARCH, byzantine: true }, seed),
      heights: 10,
      faults: [
        { atMs: 2000, kind: 'crash', node: 'validator-1' },
        { atMs: 5000, kind: 'restart', node: 'validator-1' },
      ] as SimFault[],
    };
    const liar = Object.keys(options.byzantine!)[0]!;
    const run = await simulate(options);
    assert.deepEqual(run.failures, []);
    assert.deepEqual(run.byzantine, { [liar]: 'equivocate' });

    const file = shrunkScenario(options, 'none', 'a test');
    const listed = (file.manifest as Manifest).validators as readonly { byzantine?: string }[];
    assert.deepEqual(
      listed.map((v, i) => [`validator-${i}`, v.byzantine ?? null]),
      ['validator-0', 'validator-1', 'validator-2', 'validator-3'].map((n) => [
        n,
        n === liar ? 'equivocate' : null,
      ]),
    );
    const replay = await runScenarioOnSim(
      await parseScenarioText(toYaml(file), `${file.name}.yaml`, '.'),
      seed,
      quiet,
    );
    assert.equal(replay.fingerprint, run.fingerprint, "the file's run is not the seed's");
    assert.equal(replay.ok, true, JSON.stringify(replay.cases.filter((c) => c.outcome === 'failed')));

    // A failure that needs the liar keeps it, and the 4 validators a liar needs to stay below a third.
    const needsLiar = (r: { byzantine: Readonly<Record<string, string>> }) => r.byzantine[liar] !== undefined;
    const kept = await shrink(options, run, 20, needsLiar);
    assert.deepEqual(kept.options.byzantine, { [liar]: 'equivocate' });
    assert.deepEqual(kept.options.faults, []);
    assert.equal(kept.options.validators, 4);
    // One that needs only the crash leaves the liar out, then the validators it does not need.
    const crashesOne = (r: { faults: readonly SimFault[] }) =>
      r.faults.some((f) => f.kind === 'crash' && f.node === 'validator-1');
    const dropped = await shrink(options, run, 20, crashesOne);
    assert.deepEqual(dropped.options.byzantine, {});
    assert.equal(dropped.options.validators, 2);
  });
});

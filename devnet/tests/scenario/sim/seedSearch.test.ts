/**
 * The seed search's parts: a drawn schedule written as a scenario file replays on the simulation
 * to the very run of the seed (the same fingerprint: the file drives the cluster through the same
 * calls), and shrinking keeps only what the failure needs (fewer faults, fewer validators).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DRAWN_KINDS, type SimFault, simulate } from '@chain-devnet/node/sim';
import { stringify as toYaml } from 'yaml';
import { parseScenarioText } from '../../../src/scenario/parse.js';
import { DEFAULT_SEARCH, seedOptions, shrink } from '../../../src/scenario/seedSearch.js';
import { shrunkScenario } from '../../../src/scenario/shrunkScenario.js';
import { runScenarioOnSim } from '../../../src/scenario/simRun.js';

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
});

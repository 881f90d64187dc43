/**
 * The disk step of scenario files (scenario/diskSteps.ts): read into the change `devnet disk`
 * makes, and each bad field named before anything starts, through the same parse and checks as a
 * file (parseScenario, checkScenario).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { diskChangeOf } from '../../src/scenario/diskSteps.js';
import { checkScenario } from '../../src/scenario/parse.js';

const problemsOf = async (steps: string) => {
  const r = await checkScenario(
    parseYaml(`manifest: { validators: 4, block_time: 400ms }\nsteps:\n${steps}`),
    'disk.yaml',
    '.',
  );
  return r.ok ? [] : r.problems;
};

describe('the disk step', () => {
  it('is the change devnet disk makes: full, delays in ms, lose_unsynced, clear', () => {
    assert.deepEqual(diskChangeOf({ node: 'validator-1', full: true }, 'disk'), { change: { full: true } });
    assert.deepEqual(
      diskChangeOf(
        { node: 'validator-1', slowWrites: '50ms', slowFsync: '0.2s', loseUnsynced: true },
        'disk',
      ),
      { change: { writeDelayMs: 50, fsyncDelayMs: 200, loseUnsynced: true } },
    );
    assert.deepEqual(diskChangeOf({ node: 'validator-1', clear: true }, 'disk'), { change: { clear: true } });
  });

  it('names a bad delay and a step that changes nothing', () => {
    assert.deepEqual(diskChangeOf({ node: 'v', slowWrites: 'slow' }, 'steps[3].disk'), {
      problems: ['steps[3].disk.slowWrites must be a delay such as 50ms or 0.2s, at most 60s (got "slow")'],
    });
    assert.deepEqual(diskChangeOf({ node: 'v', slowFsync: '5m' }, 'steps[0].disk'), {
      problems: ['steps[0].disk.slowFsync must be a delay such as 50ms or 0.2s, at most 60s (got "5m")'],
    });
    assert.deepEqual(diskChangeOf({ node: 'v' }, 'steps[1].disk'), {
      problems: ['steps[1].disk: give full, slowWrites, slowFsync, loseUnsynced or clear'],
    });
  });

  it('in a file: a valid step passes, an unknown node, an unknown field and a bad delay are named', async () => {
    assert.deepEqual(await problemsOf('  - disk: { node: validator-1, full: true }\n'), []);
    const problems = await problemsOf(
      '  - disk: { node: validator-9, full: true }\n  - disk: { node: validator-1, fast: true }\n  - disk: { node: validator-1, slowWrites: slow }\n',
    );
    assert.ok(
      problems.some((p) => /steps\[0\]\.disk\.node/.test(p) && /validator-9/.test(p)),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => /steps\[1\]\.disk/.test(p) && /fast/.test(p)),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('steps[2].disk.slowWrites must be a delay')),
      problems.join('\n'),
    );
  });
});

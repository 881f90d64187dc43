/**
 * The file check of issue 42's steps (scenario/timeSteps.ts): `chain` in each of its forms and
 * `clock`, each problem named by its field before any devnet starts, and a mine's last height
 * handed on with `as`. No devnet (devnet/tests/testkit/chainTimeSuite.ts runs the calls, on every runtime).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { checkScenario } from '../../src/scenario/parse.js';

const HEAD = 'manifest: { validators: 4, block_time: 400ms }\nsteps:\n';

async function problemsOf(steps: string): Promise<string[]> {
  const r = await checkScenario(parseYaml(HEAD + steps), 'test.yaml', '.');
  return r.ok ? [] : r.problems;
}

describe('issue 42: the time steps are checked with the file', () => {
  test('every form of chain and clock is accepted', async () => {
    assert.deepEqual(
      await problemsOf(
        [
          '  - chain: pause',
          '  - chain: { time: +1h }',
          '  - chain: { at: 1900000000 }',
          '  - chain: { block_time: 2s }',
          '  - chain: { block_time: default }',
          '  - chain: { mine: 250 }',
          '    as: mined',
          '  - chain: { until_height: 400 }',
          '  - chain: { until_epoch: 6 }',
          '  - chain: resume',
          '  - clock: { node: validator-1, skew: -10s }',
          '  - wait: { blocks: 2 }',
          '    at: { height: "${mined.height}" }',
          '',
        ].join('\n'),
      ),
      [],
    );
  });

  test('each problem is named by its field', async () => {
    assert.deepEqual(await problemsOf('  - chain: { time: -1h }\n'), [
      'steps[0].chain.time must be a forward duration like +1h (chain time never moves backwards)',
    ]);
    assert.deepEqual(await problemsOf('  - chain: { block_time: soon }\n'), [
      'steps[0].chain.block_time must be a duration like 500ms or 2s, or default',
    ]);
    assert.deepEqual(await problemsOf('  - clock: { node: validator-1, skew: later }\n'), [
      'steps[0].clock.skew must be a duration with a sign like +3s or -10s',
    ]);
    assert.match(
      (await problemsOf('  - clock: { node: validator-9, skew: +1s }\n'))[0] ?? '',
      /steps\[0\]\.clock\.node/,
    );
    assert.ok((await problemsOf('  - chain: hold\n')).length > 0, 'an unknown word');
    assert.ok((await problemsOf('  - chain: { mine: 0 }\n')).length > 0, 'mining nothing');
    assert.ok((await problemsOf('  - chain: { mine: 2, time: +1s }\n')).length > 0, 'two forms in one step');
  });
});

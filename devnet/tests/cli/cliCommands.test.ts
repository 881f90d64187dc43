/**
 * Every devnet command as a person runs it (the bundled CLI): it refuses an option it does not
 * declare, naming the option and the command (exit 2; with --json the ErrorJson of a bad flag),
 * and its --help is the one generated from its declaration, listing each declared option.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { commandHelp, programHelp } from '@chain-devnet/kit/cli';
import { DEVNET } from '../../src/cli/program.js';
import { devnetCli } from '../../src/harness/cli.js';
import type { ErrorJson } from '../../src/json/jsonShapes.js';

describe('every devnet command is declared once', () => {
  test('the table names each command once (devnet help listed upgrade twice)', () => {
    const names = DEVNET.commands.map((c) => c.name);
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
      'commands the table names more than once',
    );
  });

  test('devnet --help is generated from the table and names every command', async () => {
    const r = await devnetCli(['--help']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, programHelp(DEVNET));
    for (const c of DEVNET.commands) assert.match(r.stdout, new RegExp(`\\n {2}${c.name} `), c.name);
  });

  for (const c of DEVNET.commands) {
    test(`devnet ${c.name} --help is generated and lists every declared option`, async () => {
      const r = await devnetCli([c.name, '--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, commandHelp('devnet', c));
      for (const [name, o] of Object.entries(c.options)) {
        const value = o.valueName === null ? '' : ` ${o.valueName}`;
        assert.ok(r.stdout.includes(`--${name}${value}`), `devnet ${c.name} --help lists --${name}${value}`);
      }
    });

    test(`devnet ${c.name} refuses an unknown option, naming it, with exit 2`, async () => {
      const r = await devnetCli([c.name, '--nope']);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal(r.stderr, `devnet ${c.name}: unknown option --nope\nsee devnet ${c.name} --help\n`);
    });
  }

  test('with --json a refused option is the ErrorJson of a bad flag', async () => {
    const r = await devnetCli(['status', '--nope', '--json']);
    assert.equal(r.code, 2);
    assert.deepEqual(JSON.parse(r.stdout) as ErrorJson, {
      error: { code: 'BAD_FLAG', message: 'devnet status: unknown option --nope (see devnet status --help)' },
    });
  });
});

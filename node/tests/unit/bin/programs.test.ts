/**
 * chain-node and chain-market as a person runs them: every command refuses an option it does not
 * declare, naming the option and the command (exit 2), and every command's --help is the one
 * generated from its declaration, listing each declared option.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandHelp, type Program, programHelp } from '@chain-devnet/kit/cli';
import { runProgram } from '@chain-devnet/kit/process';
import { CHAIN_MARKET } from '../../../src/bin/chain-market/program.js';
import { CHAIN_NODE } from '../../../src/bin/chain-node/program.js';

const PROGRAMS: readonly { program: Program; file: string }[] = [
  { program: CHAIN_NODE, file: new URL('../../../src/bin/chain-node.js', import.meta.url).pathname },
  { program: CHAIN_MARKET, file: new URL('../../../src/bin/chain-market.js', import.meta.url).pathname },
];

for (const { program, file } of PROGRAMS)
  describe(program.name, () => {
    const run = (args: readonly string[]) => runProgram({ args: [file, ...args], timeoutMs: 30_000 });

    it('its table names each command once', () => {
      const names = program.commands.map((c) => c.name);
      assert.deepEqual(
        names.filter((n, i) => names.indexOf(n) !== i),
        [],
        'commands the table names more than once',
      );
    });

    it('--help is the program help generated from its table, naming every command', async () => {
      const r = await run(['--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, programHelp(program));
      assert.match(r.stdout, new RegExp(`^${program.name} — `));
      for (const c of program.commands) assert.match(r.stdout, new RegExp(`\\n {2}${c.name} `), c.name);
    });

    for (const c of program.commands) {
      const words = c.name.split(' ');
      it(`${c.name} --help is generated and lists every declared option`, async () => {
        const r = await run([...words, '--help']);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, commandHelp(program.name, c));
        assert.match(r.stdout, new RegExp(`^${program.name} ${c.name} `));
        for (const [name, o] of Object.entries(c.options)) {
          const value = o.valueName === null ? '' : ` ${o.valueName}`;
          assert.ok(r.stdout.includes(`--${name}${value}`), `${c.name} --help lists --${name}${value}`);
        }
      });

      it(`${c.name} refuses an unknown option, naming it, with exit 2`, async () => {
        const r = await run([...words, '--nope']);
        assert.equal(r.code, 2, r.stdout + r.stderr);
        assert.equal(
          r.stderr,
          `${program.name} ${c.name}: unknown option --nope\nsee ${program.name} ${c.name} --help\n`,
        );
      });
    }
  });

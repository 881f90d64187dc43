/** The shared command declarations: typed values from the declaration, usage errors that name what was wrong, help from the declaration. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommandLine } from '../../src/cli/command.js';
import {
  choice,
  commandHelp,
  defineCommand,
  duration,
  flag,
  integer,
  list,
  type Parsed,
  type Program,
  programHelp,
  runCommandLine,
  signedDuration,
  text,
  UsageError,
} from '../../src/cli/index.js';

const OPTIONS = {
  port: integer('RPC port', { min: 0, max: 65535, default: 8000 }),
  seed: text('every key from S', { valueName: 'S' }),
  rpc: text('the node', { valueName: 'URL', required: true }),
  wait: duration('how long', { default: 30_000 }),
  format: choice('log format', ['json', 'pretty'] as const, { default: 'json' }),
  peers: list('peers', {}),
  force: flag('overwrite', { short: 'f' }),
};

describe('defineCommand', () => {
  it('gives each value the type its declaration says, defaults when absent', () => {
    const p: Parsed<typeof OPTIONS> = parseCommandLine(
      OPTIONS,
      [],
      ['--rpc', 'http://x', '--peers', 'a, b,,c', '-f'],
    );
    // Typed without casts: these assignments are the check.
    const port: number = p.values.port;
    const seed: string | undefined = p.values.seed;
    const rpc: string = p.values.rpc;
    const format: 'json' | 'pretty' = p.values.format;
    const force: boolean = p.values.force;
    assert.deepEqual(
      { port, seed, rpc, format, force, wait: p.values.wait, peers: p.values.peers },
      {
        port: 8000,
        seed: undefined,
        rpc: 'http://x',
        format: 'json',
        force: true,
        wait: 30_000,
        peers: ['a', 'b', 'c'],
      },
    );
  });

  it('takes a negative duration as the value of its option, not as an option (--skew -10s)', () => {
    const skew = { skew: signedDuration('ahead or behind', {}), force: flag('overwrite', {}) };
    assert.equal(parseCommandLine(skew, [], ['--skew', '-10s']).values.skew, -10_000);
    assert.equal(parseCommandLine(skew, [], ['--skew', '+3s']).values.skew, 3_000);
    assert.equal(parseCommandLine(skew, [], ['--skew=-2m']).values.skew, -120_000);
    assert.throws(() => parseCommandLine(skew, [], ['--skew', '--force']), /--skew needs a value/);
    assert.throws(() => parseCommandLine(skew, [], ['--skew', '-x']), /--skew needs a value/);
  });

  it('names the option in every usage error', () => {
    const cases: [string[], RegExp][] = [
      [['--rpc', 'u', '--nope'], /^unknown option --nope$/],
      [['--rpc', 'u', '--port', 'x'], /^--port must be an integer from 0 to 65535, got x$/],
      [['--rpc', 'u', '--port', '70000'], /^--port must be an integer from 0 to 65535, got 70000$/],
      [['--rpc', 'u', '--wait', '0s'], /^--wait must be a duration such as 500ms or 2s, got 0s$/],
      [['--rpc', 'u', '--format', 'xml'], /^--format must be one of json, pretty, got xml$/],
      [['--rpc', 'u', '--force=yes'], /^--force takes no value, got yes$/],
      [['--rpc', 'u', '--seed'], /^--seed needs a value \(--seed S\)$/],
      [['--rpc', '--port', '1'], /^--rpc needs a value/],
      [[], /^--rpc is required$/],
      [['--rpc', 'u', 'extra'], /^takes no arguments, got extra$/],
    ];
    for (const [args, message] of cases)
      assert.throws(
        () => parseCommandLine(OPTIONS, [], args),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
        args.join(' '),
      );
  });

  it('checks positionals against their declaration', () => {
    const node = [{ name: 'NODE', description: 'which node', required: true }];
    assert.deepEqual(parseCommandLine({}, node, ['validator-1']).positionals, ['validator-1']);
    assert.throws(() => parseCommandLine({}, node, []), /needs NODE: which node/);
    assert.throws(() => parseCommandLine({}, node, ['a', 'b']), /takes at most NODE, got a b/);
    const files = [{ name: 'FILE', description: 'files', variadic: true }];
    assert.deepEqual(parseCommandLine({}, files, ['a', 'b', 'c']).positionals, ['a', 'b', 'c']);
  });
});

describe('a program of commands', () => {
  const ran: string[] = [];
  const program: Program = {
    name: 'prog',
    summary: 'a test program',
    defaultCommand: 'start',
    notes: 'Quick start: prog start',
    commands: [
      defineCommand({
        name: 'start',
        summary: 'run it',
        options: OPTIONS,
        run: async ({ values }) => {
          ran.push(`start ${values.port}`);
          return 0;
        },
      }),
      defineCommand({
        name: 'tx send',
        summary: 'send one',
        options: {},
        run: async () => {
          ran.push('tx send');
          return 3;
        },
      }),
    ],
  };
  const run = async (args: string[]) => {
    let printed = '';
    const code = await runCommandLine(program, args, (t) => {
      printed += t;
    });
    return { code, printed };
  };

  it('dispatches by name (several words too), to the default before an option', async () => {
    ran.length = 0;
    assert.equal((await run(['--rpc', 'u', '--port', '1'])).code, 0);
    assert.equal((await run(['start', '--rpc', 'u'])).code, 0);
    assert.equal((await run(['tx', 'send'])).code, 3);
    assert.deepEqual(ran, ['start 1', 'start 8000', 'tx send']);
    await assert.rejects(
      run(['tx']),
      (e: unknown) =>
        e instanceof UsageError && e.message === 'unknown command tx: prog help lists the commands',
    );
  });

  it('a usage error names the command it is about', async () => {
    await assert.rejects(
      run(['start', '--nope']),
      (e: unknown) =>
        e instanceof UsageError && e.where === 'prog start' && e.message === 'unknown option --nope',
    );
  });

  it('generates help from the declarations', async () => {
    const main = await run(['--help']);
    assert.equal(main.code, 0);
    assert.equal(main.printed, programHelp(program));
    assert.match(main.printed, /^prog — a test program\n/);
    assert.match(main.printed, /\n {2}tx send {2,}send one\n/);
    assert.match(main.printed, /Quick start: prog start/);
    const start = await run(['start', '--help']);
    assert.equal(start.printed, commandHelp('prog', program.commands[0]!));
    assert.equal((await run(['help', 'start'])).printed, start.printed);
    for (const line of [
      /\n {2}--port N {14}RPC port \(default 8000\)\n/,
      /\n {2}--rpc URL {13}the node \(required\)\n/,
      /\n {2}--wait D {14}how long \(default 30s\)\n/,
      /\n {2}-f, --force {11}overwrite\n/,
    ])
      assert.match(start.printed, line);
  });
});

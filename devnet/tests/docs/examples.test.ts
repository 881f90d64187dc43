/**
 * Docs that run (issue 25): every code block of docs/SCENARIOS.md, docs/TESTKIT.md and
 * devnet/README.md says, in a marker before it, how it is checked, and is checked so: scenario
 * files and timeline fragments by the scenario checker, and run on the process runtime (the
 * fragments of SCENARIOS.md in page order as one timeline, on one devnet); the manifest as `devnet
 * up` builds it; TypeScript by the compiler (the complete testkit test also run); command lines'
 * commands and flags against the CLI's --help; the sample error output against the checker's.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { repoPath } from '../../src/base/repo.js';
import { devnetCli } from '../../src/harness/cli.js';
import { knownNetwork } from '../../src/scenario/network.js';
import { checkScenario, parseScenarioText } from '../../src/scenario/parse.js';
import { checkManifest } from '../../src/spec/manifest.js';
import { commandLines } from './commandLines.js';
import { type DocBlock, docBlocks, KINDS, PAGES } from './markdown.js';

/**
 * The devnet the fragments of SCENARIOS.md run on: epochs of 20 blocks and an activation delay of
 * 10 (the added validator is ACTIVE at the first boundary 10 blocks after its STAKE: within the
 * 40 blocks its example allows, ~10 s where the default 100-block delay took 44 s), and no
 * jailing for the validator its example kills for a while (its UNJAIL must be refused as not
 * jailed). At protocol 1.0.0, as SCENARIOS.md says for its upgradePlan example (a plan to 1.1.0):
 * a devnet of this checkout starts at the newest version otherwise, and nothing is above it.
 */
const FRAGMENTS_MANIFEST = {
  validators: 4,
  protocol_version: '1.0.0',
  block_time: '400ms',
  epoch_length: 20,
  monitoring: false,
  params: { min_uptime: 0, activation_delay: 10 },
};

/** A fragment of steps as a whole file on the fragments' devnet. */
const asFile = (name: string, steps: unknown[]) => ({ name, manifest: FRAGMENTS_MANIFEST, steps });

/** The file whose problems SCENARIOS.md shows under "Errors in a file". */
const FAULTS_YAML = `steps:
  - kill: { node: validator-1 }
  - kil: { node: validator-1 }
  - heal: {}
  - kill: { node: validator-9 }
  - expect: { synced: { within: { minutes: 1 } } }
`;

function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    // Without this runner's NODE_TEST_CONTEXT, a child `node --test` runs its file as a runner of its own.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? 1, out });
    });
  });
}

describe('every example in the docs is checked, and the runnable ones run', () => {
  let blocks: DocBlock[] = [];
  let dir = '';
  before(async () => {
    blocks = (await Promise.all(PAGES.map(docBlocks))).flat();
    dir = await mkdtemp(join(tmpdir(), 'docs-examples-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const of = (kind: string) => blocks.filter((b) => b.kind === kind);

  test('every code block says how it is checked (<!-- example: KIND --> before it)', () => {
    const unmarked = blocks.filter((b) => b.kind === null || !(KINDS as readonly string[]).includes(b.kind));
    assert.deepEqual(
      unmarked.map((b) => `${b.where}: ${b.kind ?? 'no marker'}`),
      [],
      `kinds: ${KINDS.join(', ')}`,
    );
    assert.ok(blocks.length >= 20, `${blocks.length} blocks`);
  });

  test('scenario files and fragments pass the file check', async () => {
    for (const b of of('scenario')) {
      const r = await checkScenario(parseYaml(b.text), b.where, repoPath(...dirname(b.page).split('/')));
      assert.ok(r.ok, `${b.where}:\n${r.ok ? '' : r.problems.join('\n')}`);
    }
    for (const b of of('steps')) {
      const r = await checkScenario(asFile('fragment', parseYaml(b.text) as unknown[]), b.where, '.');
      assert.ok(r.ok, `${b.where}:\n${r.ok ? '' : r.problems.join('\n')}`);
    }
  });

  test('JSON blocks are JSON', () => {
    for (const b of of('json')) assert.doesNotThrow(() => JSON.parse(b.text), b.where);
  });

  test('the manifest is one devnet up builds', () => {
    for (const b of of('manifest')) {
      const checked = checkManifest(parseYaml(b.text));
      assert.ok(checked.ok, `${b.where}: ${checked.ok ? '' : checked.problems.join('; ')}`);
      assert.equal(knownNetwork(checked.manifest, true).problem, null, b.where);
    }
  });

  test('the error output shown is what the checker says of its file', async () => {
    const shown = of('output').find((b) => b.text.startsWith('devnet: faults.yaml has'));
    assert.ok(shown !== undefined);
    const err = await parseScenarioText(FAULTS_YAML, 'faults.yaml', '.').catch((e: Error) => e);
    assert.ok(err instanceof Error);
    const said = `devnet: ${err.message}`.split('\n');
    const lines = shown.text.trimEnd().split('\n');
    assert.equal(said.length, lines.length, said.join('\n'));
    lines.forEach((l, i) => {
      // "…" in the docs stands for a part left out.
      const re = new RegExp(
        `^${l
          .split('…')
          .map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
      assert.match(said[i]!, re, `${shown.where} line ${i + 1}`);
    });
  });

  test('command lines: every devnet command and flag is in its --help', async () => {
    const helps = new Map<string, Promise<string>>();
    const helpOf = (command: string) => {
      if (!helps.has(command))
        helps.set(
          command,
          devnetCli([...command.split(' ').filter((w) => w !== ''), '--help']).then((r) => {
            assert.equal(r.code, 0, `devnet ${command} --help: ${r.stderr}`);
            return r.stdout;
          }),
        );
      return helps.get(command)!;
    };
    const main = await helpOf('');
    let checked = 0;
    let others = 0;
    for (const b of of('cli')) {
      const found = commandLines(b.text);
      others += found.others;
      for (const line of found.lines) {
        const first = line.command.split(' ')[0]!;
        assert.match(main, new RegExp(`\\b${first}\\b`), `${b.where}: devnet ${first} is no command`);
        const help = await helpOf(line.command);
        for (const flag of line.flags)
          assert.ok(
            ['--help', '--home', '--json'].includes(flag) || new RegExp(`${flag}(?![\\w-])`).test(help),
            `${b.where}: ${flag} is not in devnet ${line.command} --help (${line.text})`,
          );
        checked++;
      }
    }
    assert.ok(checked >= 8, `${checked} command lines`);
    console.log(`${checked} devnet command lines checked; ${others} lines of other programs left to them`);
  });

  test('TypeScript examples compile (fragments with a Testnet `net`); the complete test runs', {
    timeout: 400_000,
  }, async () => {
    const src = join(dir, 'ts');
    await mkdir(src, { recursive: true });
    await symlink(repoPath('node_modules'), join(src, 'node_modules'));
    await writeFile(join(src, 'package.json'), '{ "type": "module" }\n');
    const files: string[] = [];
    const runnable: string[] = [];
    for (const [i, b] of of('ts').entries()) {
      const prelude = b.rest.startsWith('fragment')
        ? "import type { Testnet } from '@chain-devnet/devnet/testkit';\ndeclare const net: Testnet;\n"
        : '';
      const name = `example-${i}.ts`;
      await writeFile(join(src, name), `// ${b.where}\n${prelude}${b.text}export {};\n`);
      files.push(name);
      if (b.rest.startsWith('run')) runnable.push(`example-${i}.js`);
    }
    await writeFile(
      join(src, 'tsconfig.json'),
      JSON.stringify({
        extends: repoPath('tsconfig.json'),
        compilerOptions: {
          outDir: 'out',
          rootDir: '.',
          noUnusedLocals: false,
          sourceMap: false,
          declarationMap: false,
        },
        files,
      }),
    );
    const r = await run(repoPath('node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], src, 100_000);
    assert.equal(r.code, 0, r.out);
    // A complete test is run as its page says: node --test (it starts a process devnet and
    // takes it down whatever happens, through withTestnet).
    assert.ok(runnable.length >= 1, 'the complete test of TESTKIT.md is marked ts run');
    for (const f of runnable) {
      const t0 = Date.now();
      const ran = await run(process.execPath, ['--test', join('out', f)], src, 360_000);
      assert.equal(ran.code, 0, ran.out);
      assert.match(ran.out, /# pass 1/);
      console.log(`${f} (the complete test) ran in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  });

  test('runnable examples run on the process runtime: the SCENARIOS.md fragments in page order on one devnet, its file on another', {
    timeout: 600_000,
  }, async () => {
    const fragments = of('steps').filter((b) => b.page === 'docs/SCENARIOS.md');
    // Each fragment starts, as on a devnet of its own, with every node synced: a node its
    // predecessor restarted may still be catching up (and move while a partition must stall).
    const synced = {
      name: 'between examples: every node synced',
      expect: { synced: { within: { blocks: 30 } } },
    };
    const steps = fragments.flatMap((b, i) => [
      ...(i === 0 ? [] : [synced]),
      ...(parseYaml(b.text) as unknown[]),
    ]);
    const timeline = join(dir, 'fragments.yaml');
    await writeFile(timeline, JSON.stringify(asFile('scenarios-md-fragments', steps), null, 1));
    const files = [timeline];
    for (const [i, b] of of('scenario').entries()) {
      const f = join(dir, `scenario-${i}.yaml`);
      await writeFile(f, b.text);
      files.push(f);
    }
    const t0 = Date.now();
    const r = await devnetCli(['test', ...files, '--runtime', 'process', '--logs-dir', join(dir, 'logs')], {
      timeoutMs: 540_000,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`${files.length} of ${files.length} scenarios passed`));
    console.log(
      `${steps.length} steps of ${fragments.length} fragments and ${files.length - 1} file(s) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  });
});

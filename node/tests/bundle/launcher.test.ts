/**
 * The bundles' launcher (node/scripts/launcher.mjs, copied to <package>/dist/bundle/NAME.mjs): it runs
 * NAME.cjs from V8's code cache named after that file's hash, makes the cache on request, and
 * never runs a cache made for other code.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type RunResult, runProgram } from '@chain-devnet/kit/process';
import { NODE_V8_FLAGS } from '../../src/builds/index.js';

/** Runs a launcher as a person runs a program; it must succeed. */
async function run(...args: string[]): Promise<RunResult> {
  const r = await runProgram({ args });
  assert.equal(r.code, 0, `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r;
}
/** The repository: node/dist/tests/bundle/ is four levels below it. */
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const LAUNCHER = join(repo, 'node/scripts/launcher.mjs');
/** Each bundle's folder and the V8 flags it runs with (V8 refuses a cache made under other flags). */
const BUNDLE_DIRS = {
  'chain-node': { dir: join(repo, 'node/dist/bundle'), flags: NODE_V8_FLAGS },
  'chain-market': { dir: join(repo, 'node/dist/bundle'), flags: NODE_V8_FLAGS },
  devnet: { dir: join(repo, 'devnet/dist/bundle'), flags: [] },
};

/** A program as the build makes one: CommonJS, with require, __filename and the arguments. */
const program = (greeting: string) => `#!/usr/bin/env node
const { basename } = require('node:path');
if (process.argv.includes('--help')) console.log('usage: prog');
else console.log('${greeting} from ' + basename(__filename) + ' ' + process.argv.slice(2).join(' '));
`;

const caches = async (dir: string) => (await readdir(dir)).filter((f) => f.endsWith('.v8cache'));

describe('bundle launcher', () => {
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  const programDir = async (source: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'launcher-'));
    dirs.push(dir);
    await copyFile(LAUNCHER, join(dir, 'prog.mjs'));
    await writeFile(join(dir, 'prog.cjs'), source);
    return dir;
  };

  it('the build made a code cache that this Node accepts under the flags each program runs with', async () => {
    for (const [name, { dir, flags }] of Object.entries(BUNDLE_DIRS)) {
      assert.equal((await caches(dir)).filter((f) => f.startsWith(`${name}.`)).length, 1, name);
      // --ensure-code-cache returns at once when the cache is accepted; otherwise it runs --help.
      const { stdout } = await run(...flags, join(dir, `${name}.mjs`), '--ensure-code-cache');
      assert.equal(stdout, '', `${name}: the cache was refused`);
    }
  });

  it('runs the program with its arguments, with or without a cache', async () => {
    const dir = await programDir(program('hello'));
    const prog = join(dir, 'prog.mjs');
    assert.equal((await run(prog, 'a', 'b')).stdout, 'hello from prog.cjs a b\n');
    assert.deepEqual(await caches(dir), []);
    // --write-code-cache runs --help unless given arguments, and writes the cache at exit.
    assert.equal((await run(prog, '--write-code-cache')).stdout, 'usage: prog\n');
    assert.equal((await caches(dir)).length, 1);
    assert.equal((await run(prog, '--ensure-code-cache')).stdout, '');
    assert.equal((await run(prog, 'c')).stdout, 'hello from prog.cjs c\n');
  });

  it('remakes a refused cache, and never uses the cache of an earlier version of the program', async () => {
    const dir = await programDir(program('hello'));
    const prog = join(dir, 'prog.mjs');
    await run(prog, '--write-code-cache');
    const [first] = await caches(dir);
    await writeFile(join(dir, first!), 'not a code cache');
    assert.equal((await run(prog, '--ensure-code-cache')).stdout, 'usage: prog\n');
    assert.equal((await run(prog, '--ensure-code-cache')).stdout, '');

    // Same length, other code: V8 would take the old cache for it; the launcher looks for another.
    await writeFile(join(dir, 'prog.cjs'), program('howdy'));
    assert.equal((await run(prog, 'x')).stdout, 'howdy from prog.cjs x\n');
    await run(prog, '--write-code-cache');
    assert.equal((await caches(dir)).length, 2);
    assert.equal((await run(prog, 'y')).stdout, 'howdy from prog.cjs y\n');
  });
});

/**
 * An image is built once however many processes ask for it at once (runtime/docker/buildOnce.ts):
 * here the "image" is a file, its build a slow write, and four processes (and two calls in one)
 * ask together: one builds, the others wait and find it built. A lock left by a process that died
 * is taken over.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runProgram } from '@chain-devnet/kit/process';
import { buildLockOf, buildOnce } from '../../../src/runtime/docker/buildOnce.js';

const MODULE = new URL('../../../src/runtime/docker/buildOnce.js', import.meta.url).href;
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an image built once across processes', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'build-once-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A fake image: a file; its build appends to a log, waits, then makes the file. */
  const fake = (name: string) => {
    const image = join(dir, `${name}.image`);
    const log = join(dir, `${name}.log`);
    return {
      image,
      log,
      exists: async () => existsSync(image),
      build: async () => {
        await appendFile(log, `${process.pid}\n`);
        await later(300);
        await writeFile(image, 'built');
      },
    };
  };

  test('two calls at once in one process: one builds, the other waits and finds it', async () => {
    const f = fake('in-process');
    const tag = `chain-devnet/test:${Date.now()}-a`;
    const built = await Promise.all([buildOnce(tag, f), buildOnce(tag, f)]);
    assert.deepEqual(built.sort(), [false, true]);
    assert.equal((await readFile(f.log, 'utf8')).split('\n').filter(Boolean).length, 1);
    assert.equal(existsSync(buildLockOf(tag)), false, 'the lock is gone after the build');
  });

  test('four processes at once: one build', async () => {
    const f = fake('processes');
    const tag = `chain-devnet/test:${Date.now()}-b`;
    const script = `
      import { appendFile, writeFile } from 'node:fs/promises';
      import { existsSync } from 'node:fs';
      const { buildOnce } = await import(${JSON.stringify(MODULE)});
      const built = await buildOnce(${JSON.stringify(tag)}, {
        exists: async () => existsSync(${JSON.stringify(f.image)}),
        build: async () => {
          await appendFile(${JSON.stringify(f.log)}, process.pid + '\\n');
          await new Promise((r) => setTimeout(r, 300));
          await writeFile(${JSON.stringify(f.image)}, 'built');
        },
      });
      console.log(built);`;
    const runs = await Promise.all(
      [0, 1, 2, 3].map(() => runProgram({ args: ['--input-type=module', '-e', script], timeoutMs: 60_000 })),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(runs.map((r) => r.stdout.trim()).sort(), ['false', 'false', 'false', 'true']);
    assert.equal((await readFile(f.log, 'utf8')).split('\n').filter(Boolean).length, 1, 'built once');
  });

  test('a lock left by a process that died is taken over', async () => {
    const f = fake('stale');
    const tag = `chain-devnet/test:${Date.now()}-c`;
    // A pid that is no process (the highest Linux allows, unused here).
    await writeFile(buildLockOf(tag), '4194304\n');
    assert.equal(await buildOnce(tag, f), true);
    assert.equal(existsSync(f.image), true);
  });
});

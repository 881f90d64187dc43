/**
 * A benchmark script given an option it does not take says so in one line and exits 2
 * (src/cli/benchArgs.ts); parseArgs alone ends in a stack trace.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const BENCH_ARGS = new URL('../../src/cli/benchArgs.js', import.meta.url).href;

describe('a benchmark script', () => {
  it('refuses an unknown option in one line naming it and the options it takes, exit status 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-args-'));
    try {
      const script = join(dir, 'signatures.mjs');
      writeFileSync(
        script,
        `import { parseBenchArgs } from ${JSON.stringify(BENCH_ARGS)};
         const { values } = parseBenchArgs({ options: { rounds: { type: 'string' }, signatures: { type: 'string' } } });
         console.log(JSON.stringify(values));\n`,
      );
      const r = spawnSync(process.execPath, [script, '--bogus'], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, "signatures.mjs: Unknown option '--bogus' (it takes --rounds, --signatures)\n");
      const ok = spawnSync(process.execPath, [script, '--rounds', '3'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(ok.status, 0, ok.stderr);
      assert.deepEqual(JSON.parse(ok.stdout), { rounds: '3' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

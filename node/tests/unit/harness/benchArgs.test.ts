/**
 * A benchmark script given an option it does not take says so in one line and exits 2
 * (harness/benchArgs.ts); it used to end in parseArgs' stack trace.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const signaturesBench = fileURLToPath(new URL('../../../bench/signatures.js', import.meta.url));

describe('a benchmark script', () => {
  it('refuses an unknown option in one line naming it and the options it takes, exit status 2', () => {
    const r = spawnSync(process.execPath, [signaturesBench, '--bogus'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, "signatures.js: Unknown option '--bogus' (it takes --rounds, --signatures)\n");
  });
});

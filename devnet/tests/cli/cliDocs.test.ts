/**
 * The docs' devnet command references name only options their commands declare: the usage lines
 * of the READMEs and guides, and the first column of devnet/README.md's table of commands.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { undeclaredOptionsIn } from '@chain-devnet/kit/cli';
import { repoPath } from '../../src/base/repo.js';
import { DEVNET } from '../../src/cli/program.js';

const doc = (...path: string[]) => readFileSync(repoPath(...path), 'utf8');

describe("the docs' devnet command references", () => {
  for (const path of [
    ['README.md'],
    ['docs', 'ARCHITECTURE.md'],
    ['docs', 'BENCHMARKS.md'],
    ['docs', 'SCENARIOS.md'],
    ['e2e', 'README.md'],
  ])
    it(`${path.join('/')}: every devnet option it names exists`, () => {
      assert.deepEqual(undeclaredOptionsIn(DEVNET, doc(...path)), []);
    });

  it('devnet/README.md: every option its usage lines and its table of commands name exists', () => {
    // The table's rows name the command without the program: | `up [--validators N] …` |.
    const text = doc('devnet', 'README.md').replace(/^\| `(?=[a-z])/gm, '| `devnet ');
    const table = text.split('\n').filter((l) => l.startsWith('| `devnet '));
    assert.ok(table.length >= 10, `the table of commands: ${table.length} rows`);
    assert.deepEqual(undeclaredOptionsIn(DEVNET, text), []);
  });
});

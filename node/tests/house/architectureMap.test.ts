/**
 * docs/ARCHITECTURE.md's "Where to look" answers a newcomer's questions with paths: each path it
 * names must exist, so that the map cannot point into a room that was moved or removed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** The paths the section names in backticks (every one from the repository's root). */
function mapPaths(markdown: string): string[] {
  const start = markdown.indexOf('## Where to look');
  assert.ok(start !== -1, 'docs/ARCHITECTURE.md has no "Where to look" section');
  const section = markdown.slice(start, markdown.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---'));
  return rows.flatMap((row) =>
    [...row.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((p) => /^(node|devnet|e2e)\/[\w./-]+$/.test(p)),
  );
}

describe('docs/ARCHITECTURE.md, "Where to look"', () => {
  const paths = mapPaths(readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8'));

  it('names files for the questions it lists', () => {
    assert.ok(paths.length >= 20, `only ${paths.length} paths found`);
  });

  it('every path it names exists', () => {
    assert.deepEqual(
      paths.filter((p) => !existsSync(join(ROOT, p))),
      [],
    );
  });

  it('would see a path that does not exist', () => {
    const made = mapPaths(
      '## Where to look\n\n| q | where |\n| --- | --- |\n| x? | `node/src/nowhere/at-all.ts` |\n',
    );
    assert.deepEqual(
      made.filter((p) => !existsSync(join(ROOT, p))),
      ['node/src/nowhere/at-all.ts'],
    );
  });
});

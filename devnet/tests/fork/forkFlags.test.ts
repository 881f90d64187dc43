/**
 * `devnet up --fork URL[@HEIGHT]` and `--fork-height N` as a user types them (issue 39): a bad
 * height is named as a bad height, not as credentials; `--fork-height` takes the URL whole (one
 * whose path ends in @DIGITS) and its height reaches the fork. Nothing is made: the source is a
 * port of 127.0.0.1 nobody listens on.
 */
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devnetCli } from '../../src/harness/cli.js';

/** A port of 127.0.0.1 that was free a moment ago: nothing answers there. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('devnet up --fork: the height as the user writes it', () => {
  let dir = '';
  let home = '';
  let source = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-fork-flags-'));
    home = join(dir, 'home');
    source = `http://127.0.0.1:${await closedPort()}`;
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const up = (...args: string[]) => devnetCli(['up', '--runtime', 'process', '--home', home, ...args]);

  test('URL@abc is refused as a bad height (exit 2), not as credentials', async () => {
    const r = await up('--fork', `${source}@abc`);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /"abc" after the @ is not a height: HEIGHT must be a positive integer/);
    assert.doesNotMatch(r.stderr, /credentials/);
    await assert.rejects(access(home), 'nothing made');
  });

  test('--fork-height: the URL taken whole, its height asked of the source; alone it is refused', async () => {
    const r = await up('--fork', `${source}/v@2`, '--fork-height', '7');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout + r.stderr, new RegExp(`fork: fetching the state of ${source}/v@2 at height 7`));
    assert.match(r.stderr, /the source does not answer \(ECONNREFUSED\)/);
    const alone = await up('--fork-height', '7');
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--fork-height N goes with --fork URL/);
    const twice = await up('--fork', `${source}@5`, '--fork-height', '7');
    assert.match(twice.stderr, /the height is given twice/);
    await assert.rejects(access(home), 'nothing made');
  });
});

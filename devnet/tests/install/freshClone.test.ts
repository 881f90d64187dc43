/**
 * The README's first line in a fresh clone: after one `npm install` the commands devnet,
 * chain-node and chain-market are in node_modules/.bin and answer through npx. npm links a
 * workspace's bins before the root's `prepare` builds, and skips those whose file is missing,
 * so the bins are committed launchers (node/bin, devnet/bin); without them `npx devnet` asked
 * the public registry. The clone is of this checkout's HEAD (what is committed), installed by a
 * real `npm install` (the packages from the npm cache the outer install filled, where it has
 * them); nothing is copied from this checkout's node_modules.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runProgram } from '@chain-devnet/kit/process';
import { NOT_BUILT } from '@chain-devnet/node/launch';
import { repoRoot } from '../../src/base/repo.js';
import { cleanEnv, NPM_INSTALL, run } from './npm.js';

const COMMANDS = [
  { name: 'devnet', says: /^devnet — /, program: 'devnet/dist/bundle' },
  { name: 'chain-node', says: /^chain-node — /, program: 'node/dist/src/bin/chain-node.js' },
  { name: 'chain-market', says: /^chain-market — /, program: 'node/dist/src/bin/chain-market.js' },
] as const;

describe('a fresh clone after one npm install', { timeout: 600_000 }, () => {
  let dir = '';
  let clone = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fresh-clone-'));
    clone = join(dir, 'repo');
    const root = repoRoot();
    const head = (await run('git', ['rev-parse', 'HEAD'], root)).stdout.trim();
    await run('git', ['clone', '--quiet', '--no-checkout', root, clone], dir);
    await run('git', ['checkout', '--quiet', '--detach', head], clone);
    await run('npm', NPM_INSTALL, clone);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('has devnet, chain-node and chain-market in node_modules/.bin', () => {
    for (const { name } of COMMANDS)
      assert.ok(existsSync(join(clone, 'node_modules', '.bin', name)), `node_modules/.bin/${name}`);
  });

  for (const { name, says } of COMMANDS)
    it(`npx ${name} --help answers`, async () => {
      // --no: never install a package of that name from the registry (`npx devnet` asked it: the bug);
      // --: the rest is the command's (npx would take --help for itself).
      const { stdout } = await run('npx', ['--no', '--', name, '--help'], clone);
      assert.match(stdout, says);
    });

  it('a command whose program is not built says how to build it, without a stack trace', async () => {
    for (const { name, program } of COMMANDS) {
      const built = join(clone, program);
      await rename(built, `${built}.away`);
      try {
        const r = await runProgram({
          command: 'npx',
          args: ['--no', '--', name, '--help'],
          cwd: clone,
          env: cleanEnv(),
        });
        assert.equal(r.code, NOT_BUILT, r.stderr);
        assert.match(r.stderr, new RegExp(`^${name}: not built \\(.*\\)\\. Run \`npm run build\``));
        assert.doesNotMatch(r.stderr, /\n\s+at /);
      } finally {
        await rename(`${built}.away`, built);
      }
    }
  });
});

/**
 * A node's version in the manifest (validators[i].version, the upgrades map, auto_upgrade) and
 * in `devnet upgrade --to`: its written forms, and every wrong one refused naming its field,
 * before anything is made (an unknown ref, a path that is no chain-node build).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DevnetError } from '../../src/base/errors.js';
import { repoRoot } from '../../src/base/repo.js';
import { checkManifest } from '../../src/spec/manifest.js';
import { pinManifestVersions } from '../../src/spec/manifestVersions.js';
import { pinVersion } from '../../src/versions/resolve.js';
import { formatVersion, parseVersion } from '../../src/versions/source.js';
import { OLDER_COMMIT } from './olderBuild.js';

function problemsOf(value: unknown): string[] {
  const r = checkManifest(value);
  assert.equal(r.ok, false, 'expected the manifest to be refused');
  return r.ok ? [] : r.problems;
}

describe('version forms', () => {
  test('each form reads back as it was written', () => {
    for (const text of [
      'checkout',
      'git:v1.0.0',
      'git:69603f9',
      'path:/opt/my build',
      'image:chain-node:1.1',
    ])
      assert.equal(formatVersion(parseVersion(text) as never), text);
  });

  test('anything else is refused, saying the forms', () => {
    for (const text of ['', 'foo', 'git:', 'git:a b', 'svn:1', 'image:', 'Checkout'])
      assert.match(
        (parseVersion(text) as { problem: string }).problem,
        /is not a version: use checkout, git:REF, path:DIR or image:NAME/,
      );
  });
});

describe('the manifest fields', () => {
  test('versions, an upgrades map and auto_upgrade are accepted', () => {
    const r = checkManifest({
      validators: [{ version: 'git:main' }, { version: 'checkout' }, {}],
      upgrades: { '1.1.0': 'git:v1.1.0', '2.0.0': 'image:chain-node:2' },
      auto_upgrade: true,
    });
    assert.equal(r.ok, true, JSON.stringify(r));
  });

  test('a malformed version, an upgrades key that is no protocol version and a wrong auto_upgrade each name their field', () => {
    assert.deepEqual(
      problemsOf({
        validators: [{}, { version: 'v1' }],
        upgrades: { '1.1': 'git:x', '1.2.0': 'somewhere' },
        auto_upgrade: 'yes',
      }).sort(),
      [
        'auto_upgrade must be boolean',
        'upgrades: "1.1" is not a protocol version MAJOR.MINOR.PATCH',
        'upgrades["1.2.0"]: "somewhere" is not a version: use checkout, git:REF, path:DIR or image:NAME',
        'validators[1].version: "v1" is not a version: use checkout, git:REF, path:DIR or image:NAME',
      ],
    );
  });
});

describe('pinning (before anything starts)', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  test('a git ref is pinned to its commit, a path made absolute, checkout and an image kept', async () => {
    assert.equal(await pinVersion(`git:${OLDER_COMMIT.slice(0, 9)}`, '--to'), `git:${OLDER_COMMIT}`);
    assert.equal(await pinVersion('checkout', '--to'), 'checkout');
    assert.equal(await pinVersion('image:chain-node:9', '--to'), 'image:chain-node:9');
    // This checkout is a built one (the tests run from its build).
    assert.equal(await pinVersion(`path:${repoRoot()}/.`, '--to'), `path:${repoRoot()}`);
  });

  test('an unknown ref, a missing path and a folder that is no chain-node build are refused naming the field', async () => {
    const notBuilt = await mkdtemp(join(tmpdir(), 'devnet-not-a-build-'));
    dirs.push(notBuilt);
    await mkdir(join(notBuilt, 'node', 'dist'), { recursive: true });
    await writeFile(join(notBuilt, 'package.json'), '{}');
    const refused = async (m: object, message: RegExp) =>
      assert.rejects(pinManifestVersions(m), (e: unknown) => {
        assert.ok(e instanceof DevnetError);
        assert.equal(e.code, 'BAD_VERSION');
        assert.match(e.message, message);
        return true;
      });
    await refused(
      { validators: [{}, { version: 'git:no-such-branch-anywhere' }] },
      /^validators\[1\]\.version: git:no-such-branch-anywhere: no commit of that name in /,
    );
    await refused(
      { upgrades: { '1.1.0': 'path:/no/such/folder' } },
      /^upgrades\["1\.1\.0"\]: path \/no\/such\/folder does not exist$/,
    );
    await refused(
      { validators: [{ version: `path:${notBuilt}` }] },
      /^validators\[0\]\.version: path .* is not a chain-node build \(neither node\/dist\/bundle\/chain-node\.mjs nor node\/dist\/src\/bin\/chain-node\.js is there\)/,
    );
  });
});

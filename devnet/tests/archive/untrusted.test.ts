/**
 * An archive may be a stranger's: `devnet up --from` runs nothing an archive wrote and trusts
 * nothing in it for being there (issue 39). From a real saved devnet, the archive is changed the
 * ways an attacker did and each is refused before anything starts, naming the cause, with no home
 * left and nothing written outside it:
 *   - a version that points at a program the archive itself carries (path: into the home, a git
 *     "commit" that walks from the build cache into the home, where the archive put a build marker);
 *   - an added node named `../…`, devnet.json fields that are no devnet's, an unknown node folder,
 *     a file no home holds;
 *   - a genesis time or chain id in devnet.json that disagrees with the stores (another chain's
 *     genesis), and a recorded height that is not the store's;
 *   - a small archive that inflates past what a devnet holds (allowed with --max-restore-size).
 * The archive as saved is restored and runs.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildCacheDir } from '@chain-devnet/node/builds';
import { devnetCli } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import { restore } from '../../src/operations/restore.js';
import { repack, unpack } from './craft.js';

const quiet = () => undefined;

describe("a stranger's archive: nothing it wrote runs, nothing in it is trusted", () => {
  let dir = '';
  let saved = '';
  let files = new Map<string, Buffer>();
  let manifest: Record<string, unknown> = {};
  let state: Record<string, unknown> = {};
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-untrusted-'));
    const home = join(dir, 'source');
    const base = await freeDevnetBase(1, false);
    const up = await devnetCli(
      [
        'up',
        '--validators',
        '1',
        '--runtime',
        'process',
        '--block-time',
        '200ms',
        '--no-monitoring',
        '--no-ui',
      ].concat(['--base-port', String(base), '--home', home]),
    );
    assert.equal(up.code, 0, up.stderr);
    saved = join(dir, 'saved.tar.gz');
    const s = await devnetCli(['save', saved, '--home', home]);
    assert.equal(s.code, 0, s.stderr);
    assert.equal((await devnetCli(['down', '--home', home])).code, 0);
    ({ manifest, files } = await unpack(saved));
    state = JSON.parse(files.get('devnet/devnet.json')!.toString('utf8')) as Record<string, unknown>;
  });
  after(async () => {
    // A restore that was not refused would have started nodes: take down whatever a test made.
    for (const name of await readdir(dir).catch(() => []))
      if (existsSync(join(dir, name, 'devnet.json'))) await devnetCli(['down', '--home', join(dir, name)]);
    await rm(dir, { recursive: true, force: true });
  });

  /** The saved archive with `edit` applied to its files (the manifest written anew to match). */
  async function crafted(name: string, edit: (f: Map<string, Buffer>) => void): Promise<string> {
    const changed = new Map(files);
    edit(changed);
    const file = join(dir, `${name}.tar.gz`);
    await repack(file, changed, manifest);
    return file;
  }

  const withState = (change: (s: Record<string, unknown>) => void) => (f: Map<string, Buffer>) => {
    const s = structuredClone(state);
    change(s);
    f.set('devnet/devnet.json', Buffer.from(JSON.stringify(s)));
  };

  /** Restores `file` into a new home and expects `code` and `message`; no home is left, nothing runs. */
  async function refused(
    file: string,
    code: string,
    message: RegExp,
    home = join(dir, `home-${Date.now()}`),
  ) {
    const base = await freeDevnetBase(1, false);
    await assert.rejects(
      restore({ from: file, home, runtime: 'process', basePort: base, ui: false, progress: quiet }),
      (e: Error) => {
        assert.equal((e as { code?: string }).code, code, e.message);
        assert.match(e.message, message);
        return true;
      },
    );
    assert.equal(existsSync(home), false, 'no devnet home is made for a refused archive');
    const left = (await readdir(dir)).filter((n) => n.includes('.restoring-'));
    assert.deepEqual(left, [], 'the folder the files were checked in is gone');
  }

  test('a path version into the home, to a program the archive carries, is never run', async () => {
    const home = join(dir, 'evil-path');
    const marker = join(dir, 'evil-path-ran');
    const program = `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran');\n`;
    const file = await crafted('evil-path', (f) => {
      f.set('nodes/validator-0/data/evil/node/dist/bundle/chain-node.mjs', Buffer.from(program));
      withState((s) => {
        s.versions = { 'validator-0': `path:${join(home, 'nodes/validator-0/data/evil')}` };
      })(f);
    });
    await refused(
      file,
      'BAD_VERSION',
      /devnet\/devnet\.json versions\["validator-0"\]: path .* is inside the devnet's home/,
      home,
    );
    assert.equal(existsSync(marker), false, "the archive's program never ran");
  });

  test('a git "commit" that walks from the build cache into the home is never taken for a build', async () => {
    const home = join(dir, 'evil-git');
    const walk = relative(buildCacheDir(), join(home, 'nodes/validator-0/data/evil'));
    const file = await crafted('evil-git', (f) => {
      f.set('nodes/validator-0/data/evil/.chain-devnet-build.json', Buffer.from('{}'));
      f.set('nodes/validator-0/data/evil/node/dist/bundle/chain-node.mjs', Buffer.from('process.exit(0)\n'));
      withState((s) => {
        s.versions = { 'validator-0': `git:${walk}` };
      })(f);
    });
    await refused(
      file,
      'BAD_VERSION',
      /devnet\/devnet\.json versions\["validator-0"\]: git:.*no commit of that name/,
      home,
    );
  });

  test("an added node named ../… and fields that are no devnet's are named, all in one pass", async () => {
    const file = await crafted(
      'bad-names',
      withState((s) => {
        s.added = [{ name: '../../escape', index: 1, stake: null }];
        s.extra = true;
        (s.input as Record<string, unknown>).genesisTime = -5;
      }),
    );
    await refused(
      file,
      'BAD_ARCHIVE',
      /^(?=.*added\[0\]\.name: "\.\.\/\.\.\/escape" does not match)(?=.*extra is not a field of devnet\.json)(?=.*input\.genesisTime must be >= 0)/,
    );
    assert.equal(existsSync(join(dir, 'escape')), false);
  });

  test('an added node whose name is taken, or at the wrong index, is refused by name', async () => {
    const file = await crafted(
      'taken-name',
      withState((s) => {
        s.added = [{ name: 'account-0', index: 3, stake: null }];
      }),
    );
    await refused(
      file,
      'BAD_ARCHIVE',
      /added\[0\]\.name: account-0 is taken in this devnet; added\[0\]\.index must be 1, got 3/,
    );
  });

  test('a folder of a node the devnet does not have, or a file no home holds, is refused', async () => {
    const stranger = await crafted('stranger', (f) => {
      f.set('nodes/stranger/genesis.json', files.get('nodes/validator-0/genesis.json')!);
    });
    await refused(stranger, 'BAD_ARCHIVE', /nodes\/stranger\/ is not a node of this devnet/);
    const script = await crafted('script', (f) => {
      f.set('nodes/validator-0/start.sh', Buffer.from('#!/bin/sh\n'));
    });
    await refused(script, 'BAD_ARCHIVE', /nodes\/validator-0\/start\.sh: not a file a node's home holds/);
  });

  test("another chain's genesis: a genesis time or chain id in devnet.json that the stores were not made from", async () => {
    const time = await crafted(
      'other-time',
      withState((s) => {
        (s.input as { genesisTime: number }).genesisTime += 1;
      }),
    );
    await refused(
      time,
      'BAD_ARCHIVE',
      /nodes\/validator-0\/genesis\.json is genesis [0-9a-f]{16}…, not this devnet's/,
    );
    const chain = await crafted('other-chain', (f) => {
      withState((s) => {
        (s.input as { manifest: Record<string, unknown> }).manifest.chain_id = 'chain-other-1';
      })(f);
      f.delete('nodes/validator-0/genesis.json');
    });
    await refused(
      chain,
      'BAD_ARCHIVE',
      /nodes\/validator-0\/data: the data folder belongs to chain chain-devnet-1, but the genesis is for chain-other-1/,
    );
  });

  test("a recorded height that is not the store's is refused", async () => {
    const file = join(dir, 'height.tar.gz');
    await repack(file, files, { ...manifest, heights: { 'validator-0': 999_999 } });
    await refused(
      file,
      'BAD_ARCHIVE',
      /nodes\/validator-0\/data is at height \d+, but manifest\.json records 999999/,
    );
  });

  test('a small archive that would inflate past what a devnet holds is refused, unless allowed', async () => {
    const file = await crafted('bomb', (f) => {
      f.set('nodes/validator-0/data/zeros.ldb', Buffer.alloc(300 * 1024 * 1024));
    });
    await refused(
      file,
      'BAD_ARCHIVE',
      /would write 300 MiB into the home, \d+ times its own .*pass --max-restore-size 300MiB/,
    );
    // Allowed (--max-restore-size), it is restored: level keeps a table file it does not know.
    const home = join(dir, 'bomb-allowed');
    const base = await freeDevnetBase(1, false);
    const r = await restore({
      from: file,
      home,
      runtime: 'process',
      basePort: base,
      ui: false,
      maxBytes: 400 * 1024 ** 2,
      progress: quiet,
    });
    assert.ok((r.heights['validator-0'] ?? 0) > 0);
    assert.equal((await devnetCli(['down', '--home', home])).code, 0);
  });

  test('the archive as saved is restored and runs', async () => {
    const home = join(dir, 'honest');
    const r = await restore({
      from: saved,
      home,
      runtime: 'process',
      basePort: await freeDevnetBase(1, false),
      ui: false,
      progress: quiet,
    });
    assert.deepEqual(Object.keys(r.heights), ['validator-0']);
    assert.equal((await devnetCli(['down', '--home', home])).code, 0);
  });
});

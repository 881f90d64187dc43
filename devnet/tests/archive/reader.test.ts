/**
 * The archive reader refuses, naming what is wrong, an archive of another format version, a
 * truncated or corrupt one, a tampered file, a missing or extra file, and every way out of the
 * devnet's home (absolute path, `..`, symlink, hard link, device), a file or an archive past its
 * size bound; and `devnet up --from` with such an archive makes no home and starts nothing. An
 * archive of 256 MiB is read and extracted as a stream, memory not growing with it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MAX_ARCHIVE_FILES } from '../../src/archive/format.js';
import { extractArchive, readArchive } from '../../src/archive/read.js';
import { writeArchive } from '../../src/archive/write.js';
import { restore } from '../../src/operations/restore.js';
import { type CraftEntry, craftArchive, craftLargeArchive, manifestOf, sampleFiles } from './craft.js';

const FIXTURES = fileURLToPath(new URL('../../../tests/archive/fixtures/', import.meta.url));

describe('devnet archive reader', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-archive-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes the archive, then expects both the reader and `up --from` to refuse it with `message`. */
  async function refused(name: string, entries: CraftEntry[] | Buffer, message: RegExp): Promise<void> {
    const file = join(dir, `${name}.tar.gz`);
    if (Buffer.isBuffer(entries)) await writeFile(file, entries);
    else await craftArchive(file, entries);
    await assert.rejects(readArchive(file), (e: Error) => {
      assert.match(e.message, message);
      assert.equal((e as { code?: string }).code, 'BAD_ARCHIVE');
      return true;
    });
    const home = join(dir, `${name}-home`);
    await assert.rejects(
      restore({ from: file, home, runtime: 'process', basePort: 39000, progress: () => undefined }),
      message,
    );
    assert.equal(existsSync(home), false, 'no devnet home is made for a refused archive');
  }

  const files = sampleFiles();
  const entriesOf = (f: typeof files) => f.map((x) => ({ name: x.name, body: x.body }));

  test('a valid archive is read whole', async () => {
    const file = join(dir, 'good.tar.gz');
    await craftArchive(file, [manifestOf(files), ...entriesOf(files)]);
    const a = await readArchive(file);
    assert.equal(a.manifest.version, 1);
    assert.deepEqual(
      a.manifest.files.map((f) => f.path),
      files.map((f) => f.name),
    );
    assert.deepEqual([...a.devnetFiles.keys()], ['devnet/devnet.json', 'devnet/accounts.json']);
    const home = join(dir, 'good-home');
    await extractArchive(a, { nodes: join(home, 'nodes') });
    assert.deepEqual(await readFile(join(home, 'nodes/validator-0/genesis.json')), files[2]!.body);
  });

  test('what writeArchive streams out, readArchive reads back byte for byte (an empty file, one of several chunks)', async () => {
    const src = join(dir, 'src');
    await mkdir(src, { recursive: true });
    const bodies = new Map<string, Buffer>([
      ['devnet/devnet.json', files[0]!.body],
      ['devnet/accounts.json', files[1]!.body],
      ['nodes/validator-0/data/empty.log', Buffer.alloc(0)],
      ['nodes/validator-0/data/000005.ldb', randomBytes(3 * 1024 * 1024 + 17)],
    ]);
    const sources = [...bodies].map(([path], i) => ({ path, from: join(src, String(i)) }));
    for (const [i, body] of [...bodies.values()].entries()) await writeFile(join(src, String(i)), body);
    const file = join(dir, 'written.tar.gz');
    await writeArchive(file, sources, { runtime: 'process', heights: { 'validator-0': 1 } });
    const a = await readArchive(file);
    const home = join(dir, 'written-home');
    await extractArchive(a, { nodes: join(home, 'nodes') });
    for (const [path, body] of bodies)
      if (path.startsWith('nodes/')) assert.deepEqual(await readFile(join(home, path)), body, path);
  });

  test('the version 0 fixture is refused naming both versions', async () => {
    const body = await readFile(join(FIXTURES, 'version0.tar.gz'));
    await refused('v0', body, /archive format version 0: this devnet \(node [0-9.]+\) reads version 1/);
  });

  test('a truncated archive is refused', async () => {
    const file = join(dir, 'whole.tar.gz');
    await craftArchive(file, [manifestOf(files), ...entriesOf(files)]);
    const whole = await readFile(file);
    await refused('truncated', whole.subarray(0, Math.floor(whole.length / 2)), /truncated or corrupt/);
  });

  test('a corrupt archive is refused', async () => {
    const file = join(dir, 'whole2.tar.gz');
    await craftArchive(file, [manifestOf(files), ...entriesOf(files)]);
    const bytes = Buffer.from(await readFile(file));
    for (let i = 20; i < 60; i++) bytes[i] = bytes[i]! ^ 0xff;
    await refused('corrupt', bytes, /truncated or corrupt/);
  });

  test('a tampered file (its hash not matching) is refused by name', async () => {
    const tampered = entriesOf(files).map((e) =>
      e.name === 'devnet/accounts.json' ? { ...e, body: Buffer.from('[{"evil":1}]\n') } : e,
    );
    await refused(
      'tampered',
      [manifestOf(files), ...tampered],
      /devnet\/accounts\.json does not match its size and SHA-256/,
    );
  });

  test('a missing file is refused by name', async () => {
    await refused(
      'missing',
      [manifestOf(files), ...entriesOf(files).slice(0, 2)],
      /missing nodes\/validator-0\/genesis\.json/,
    );
  });

  test('an extra file is refused by name', async () => {
    await refused(
      'extra',
      [
        manifestOf(files),
        ...entriesOf(files),
        { name: 'nodes/validator-0/data/extra.ldb', body: Buffer.from('x') },
      ],
      /nodes\/validator-0\/data\/extra\.ldb is not listed/,
    );
  });

  test('the manifest must come first', async () => {
    await refused(
      'order',
      [...entriesOf(files), manifestOf(files)],
      /the first entry is devnet\/devnet\.json/,
    );
  });

  for (const [what, entry, message] of [
    ['an absolute path', { name: '/tmp/evil', body: Buffer.from('x') }, /an absolute path/],
    ['a .. segment', { name: 'nodes/validator-0/../../../evil', body: Buffer.from('x') }, /\.\. segment/],
    [
      'a symlink',
      { name: 'nodes/validator-0/link', type: 'symlink', linkname: '/etc/passwd' },
      /is a symlink/,
    ],
    ['a hard link', { name: 'nodes/validator-0/hard', type: 'link', linkname: '/etc/passwd' }, /is a link/],
    ['a device file', { name: 'nodes/validator-0/dev', type: 'character-device' }, /is a character-device/],
  ] as const)
    test(`an entry with ${what} is refused`, async () => {
      await refused(
        what.replace(/\W+/g, '-'),
        [manifestOf(files), ...entriesOf(files), entry as CraftEntry],
        message,
      );
    });

  test('a file larger than a file may be, or an archive larger than its bound, is refused', async () => {
    const file = join(dir, 'bounds.tar.gz');
    await craftArchive(file, [manifestOf(files), ...entriesOf(files)]);
    const largest = Math.max(...files.map((f) => f.body.length));
    const total = files.reduce((n, f) => n + f.body.length, 0);
    await assert.rejects(
      readArchive(file, { entryBytes: largest - 1, totalBytes: 1e9 }),
      new RegExp(`devnet/devnet\\.json is ${largest} bytes, more than the ${largest - 1} a file may be`),
    );
    await assert.rejects(
      readArchive(file, { entryBytes: 1e9, totalBytes: total - 1 }),
      new RegExp(`its files are ${total} bytes, more than the ${total - 1} an archive may hold`),
    );
    await readArchive(file, { entryBytes: largest, totalBytes: total });
  });

  test('a file with more bytes than its manifest lists is refused by name', async () => {
    const longer = entriesOf(files).map((e) =>
      e.name === 'nodes/validator-0/genesis.json' ? { ...e, body: Buffer.alloc(1024 * 1024) } : e,
    );
    await refused(
      'longer',
      [manifestOf(files), ...longer],
      /nodes\/validator-0\/genesis\.json does not match its size and SHA-256/,
    );
  });

  test('an archive larger than memory should hold is streamed: memory does not grow with it', async () => {
    const size = 256 * 1024 * 1024;
    const file = join(dir, 'large.tar.gz');
    const big = await craftLargeArchive(file, size);
    // External memory (Buffers) sampled while it is read and extracted: held whole, it would grow by `size`.
    globalThis.gc?.();
    const base = process.memoryUsage().arrayBuffers;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 10);
    const home = join(dir, 'large-home');
    try {
      const a = await readArchive(file);
      await extractArchive(a, { nodes: join(home, 'nodes') });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    assert.equal((await stat(join(home, big))).size, size);
    const grew = peak - base;
    assert.ok(
      grew < size / 4,
      `external memory grew by ${(grew / 2 ** 20).toFixed(1)} MiB reading ${size / 2 ** 20} MiB`,
    );
    await rm(home, { recursive: true, force: true });
    await rm(file, { force: true });
  });

  test('a path listed twice is refused, not the later entry taken', async () => {
    const twice = [...files, files[2]!];
    await refused(
      'listed-twice',
      [manifestOf(twice), ...entriesOf(files)],
      /manifest\.json lists nodes\/validator-0\/genesis\.json twice/,
    );
  });

  test('more files than an archive may hold are refused from the manifest, before any is read', async () => {
    const many = Array.from({ length: MAX_ARCHIVE_FILES + 1 }, (_, i) => ({
      name: `nodes/validator-0/data/${i}.ldb`,
      body: Buffer.alloc(0),
    }));
    const began = Date.now();
    await refused(
      'too-many',
      [manifestOf([...files, ...many]), ...entriesOf(files)],
      new RegExp(
        `lists ${MAX_ARCHIVE_FILES + 4} files, more than the ${MAX_ARCHIVE_FILES} an archive may hold`,
      ),
    );
    assert.ok(Date.now() - began < 30_000, 'refused from the manifest, not after the files');
  });

  test("every file a node's and the market's homes hold is read (what save writes)", async () => {
    const homes = [
      ...files,
      ...[
        'nodes/validator-0/validator_key.json',
        'nodes/validator-0/p2p_key',
        'nodes/validator-0/priv_validator_state.json',
        'nodes/validator-0/priv_validator_locked_block.json',
        'nodes/validator-0/priv_validator_proposal.json',
        'nodes/validator-0/data/MANIFEST-000004',
        'nodes/validator-0/snapshots/600.snapshot.gz',
        'services/market/key.json',
        'services/market/data/market-data/CURRENT',
        'services/market-worker/key.json',
      ].map((name) => ({ name, body: Buffer.from(name) })),
    ];
    const file = join(dir, 'homes.tar.gz');
    await craftArchive(file, [manifestOf(homes), ...entriesOf(homes)]);
    assert.equal((await readArchive(file)).manifest.files.length, homes.length);
  });

  test("a file no node's or service's home holds is refused, even when listed", async () => {
    for (const [name, path] of [
      ['script', 'nodes/validator-0/run.sh'],
      ['node-json', 'nodes/validator-0/node.json'],
      ['snapshot-name', 'nodes/validator-0/snapshots/evil.mjs'],
      ['service-file', 'services/market/start.mjs'],
    ] as const) {
      const listed = [...files, { name: path, body: Buffer.from('x') }];
      await refused(
        name,
        [manifestOf(listed), ...entriesOf(listed)],
        /not a file a (node|service)'s home holds/,
      );
    }
  });

  test('a manifest listing a path that escapes is refused', async () => {
    const listed = [...files, { name: '../outside', body: Buffer.from('x') }];
    await refused(
      'listed-escape',
      [manifestOf(listed), ...entriesOf(files)],
      /manifest\.json lists \.\.\/outside/,
    );
  });
});

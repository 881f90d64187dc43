/**
 * A node stopped while it wrote a snapshot leaves `<height>.snapshot.gz.tmp` in its home (the
 * write goes to a temporary name, then a rename), and removes it itself at its next start. `devnet
 * save` must not carry it: the archive format admits only the files a home's programs read, so
 * every restore of such an archive was refused ("not a file a node's home holds"). Seen in a
 * fresh-clone CI run beside busy loops: a swarm saved while it ran, a validator stopped in the
 * middle of its snapshot at 200.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { SaveJson, UpJson } from '../../src/json/jsonShapes.js';

const dir = await mkdtemp(join(tmpdir(), 'devnet-save-tmp-'));
const home = join(dir, 'home');
const restored = join(dir, 'restored');
after(async () => {
  await devnetCli(['down', '--home', restored]);
  await devnetCli(['down', '--home', home]);
  await rm(dir, { recursive: true, force: true });
});

test('save leaves out a snapshot write a stop interrupted, and the archive restores', async () => {
  const base = await freeDevnetBase(1, false);
  await devnetJson<UpJson>([
    ...['up', '--runtime', 'process', '--validators', '1', '--block-time', '300ms', '--no-monitoring'],
    ...['--base-port', String(base), '--no-ui', '--home', home],
  ]);
  assert.equal((await devnetCli(['stop', '--home', home])).code, 0);
  const snapshots = join(home, 'nodes', 'validator-0', 'snapshots');
  await rm(snapshots, { recursive: true, force: true });
  await mkdir(snapshots, { recursive: true });
  await writeFile(join(snapshots, '200.snapshot.gz.tmp'), 'half a snapshot');
  const archive = join(dir, 'a.tar.gz');
  const saved = await devnetJson<SaveJson>(['save', archive, '--home', home]);
  assert.ok(saved.files > 0);
  const again = await devnetJson<UpJson>([
    ...['up', '--from', archive, '--runtime', 'process', '--no-ui'],
    ...['--base-port', String(await freeDevnetBase(1, false)), '--home', restored],
  ]);
  assert.equal(again.nodes.length, 1);
});

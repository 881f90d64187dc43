/**
 * A real run recorded and replayed (issue 43): a process devnet of 4 validators with
 * `record_consensus: true` makes blocks, one validator is killed (the lines of the height it was
 * in lost with it) and started again; the archive of the run (Testnet.save) and the devnet's home
 * each replay, for every node, to the same actions at every input through `devnet replay`; a
 * record changed by hand is a divergence (exit 1, the height, the line, the recorded and the
 * replayed actions); a node without a record, an unknown node and a missing source say so.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import type { ReplayJson } from '../../src/json/jsonShapes.js';
import { Testnet } from '../../src/testkit/index.js';

describe('devnet replay of a recorded real run', () => {
  let net: Testnet;
  let dir = '';
  let archive = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-replay-'));
    archive = join(dir, 'run.tar.gz');
    net = await Testnet.start({
      manifest: { validators: 4, block_time: '300ms', seed: 'replay', record_consensus: true },
      runtime: 'process',
      name: 'replay',
      log: () => undefined,
    });
    await net.waitBlocks(8);
    await net.node('validator-2').kill();
    await net.waitBlocks(4, ['validator-0', 'validator-1', 'validator-3']);
    await net.node('validator-2').start();
    await net.synced();
    await net.waitBlocks(4);
    await net.save(archive);
  });
  after(async () => {
    await net?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The first height entry of the node's record in the home (the archive holds the same start). */
  const firstRecordedHeight = async (node: string): Promise<number> => {
    const text = await readFile(join(net.home, 'nodes', node, 'consensus-record.jsonl'), 'utf8');
    const line = text.split('\n').find((l) => l.startsWith('{"k":"height"'));
    assert.ok(line, `${node}: a height entry in its record`);
    return (JSON.parse(line) as { height: number }).height;
  };

  it('every node of the archive and of the home replays to the same actions at every input', async () => {
    for (const source of [archive, net.home])
      for (const node of net.names()) {
        const r = await devnetJson<ReplayJson>(['replay', source, '--node', node, '--json']);
        assert.equal(r.divergence, null, `${node} from ${source}: ${JSON.stringify(r.divergence)}`);
        // From the record's first height: 1, unless the node came up after the others had
        // committed height 1 and took it by block sync (a busy runner), its core starting later.
        assert.equal(r.from, await firstRecordedHeight(node), `${node} from ${source}`);
        assert.ok(r.decisions >= 6, `${node}: ${r.decisions} decisions`);
        assert.ok(r.inputs > r.decisions * 4, `${node}: ${r.inputs} inputs`);
      }
    const shown = await devnetCli(['replay', archive, '--node', 'validator-2']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /validator-2: heights 1\.\.\d+ replayed \(\d+ inputs, \d+ decisions\): the same actions/,
    );
  });

  it('a record changed by hand is where the build decides otherwise: exit 1, its height and line', async () => {
    // The home's record of validator-0 with one vote action changed to nil.
    const file = join(net.home, 'nodes', 'validator-0', 'consensus-record.jsonl');
    const original = await readFile(file, 'utf8');
    const lines = original.split('\n');
    const at = lines.findIndex(
      (l) =>
        l.startsWith('{"k":"out"') &&
        /"kind":"vote","vote":"prevote","round":0,"block_hash":"[0-9a-f]{64}"/.test(l),
    );
    assert.ok(at > 0);
    lines[at] = lines[at]!.replace(
      /("kind":"vote","vote":"prevote","round":0,"block_hash":)"[0-9a-f]{64}"/,
      '$1null',
    );
    await writeFile(file, lines.join('\n'));
    try {
      const r = await devnetCli(['replay', net.home, '--node', 'validator-0']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, new RegExp(`decides otherwise at height \\d+, line ${at + 1} `));
      assert.match(r.stdout, /recorded: +the actions .*"block_hash":null/);
    } finally {
      await writeFile(file, original);
    }
  });

  it('an unknown node, a missing source and a node that kept no record say so', async () => {
    const unknown = await devnetCli(['replay', archive, '--node', 'validator-9']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no node validator-9 in the archive/);
    const missing = await devnetCli(['replay', join(dir, 'nothing.tar.gz'), '--node', 'validator-0']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no such archive or devnet folder/);
    // A devnet folder whose node kept no record (a live node's would write its file again at once).
    const bare = join(dir, 'bare');
    await mkdir(join(bare, 'nodes', 'validator-3'), { recursive: true });
    const none = await devnetCli(['replay', bare, '--node', 'validator-3']);
    assert.notEqual(none.code, 0);
    assert.match(none.stderr, /kept no consensus record.*record_consensus: true/);
  });
});

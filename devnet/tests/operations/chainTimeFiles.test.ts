/**
 * The devnet's side of the chain control without a node (runtime/chainControl.ts,
 * operations/chainTime.ts): each node's chain_control.json written and read back, handed to the
 * runtime, a new home seeded with the others' chain-wide control and its own skew, and the line
 * `devnet status` prints.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Layout } from '../../src/base/layout.js';
import { describeChainTime } from '../../src/devnet/chainTimeShown.js';
import { CHAIN_CONTROL_FILE, ChainControlFiles, NO_CHAIN_CONTROL } from '../../src/runtime/chainControl.js';

describe("the devnet's chain control files", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chain-time-files-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const layout = new Layout(dir);
  const copied: string[] = [];
  const files = new ChainControlFiles(layout, {
    node: (name) => ({
      copyHomeFile: async (_home: string, file: string) => {
        copied.push(`${name} ${file}`);
      },
    }),
  });
  for (const n of ['validator-0', 'validator-1', 'validator-2'])
    await mkdir(layout.nodeHome(n), { recursive: true });

  it('writes a node its file, hands it to the runtime, and reads it back; no file is no control', async () => {
    assert.deepEqual(await files.of('validator-0'), NO_CHAIN_CONTROL);
    const c = { ...NO_CHAIN_CONTROL, hold: true, timeOffsetMs: 3_600_000, clockSkewMs: -10_000 };
    await files.write('validator-0', c);
    assert.deepEqual(await files.of('validator-0'), c);
    assert.deepEqual(copied, [`validator-0 ${CHAIN_CONTROL_FILE}`]);
    const text = await readFile(join(layout.nodeHome('validator-0'), CHAIN_CONTROL_FILE), 'utf8');
    assert.match(text, /"time_offset_ms":3600000/);
  });

  it("seeds a new home with the others' chain-wide control and its own skew, writing nothing for nothing", async () => {
    await files.seed('validator-1', ['validator-0', 'validator-1'], 3_000);
    assert.deepEqual(await files.of('validator-1'), {
      ...NO_CHAIN_CONTROL,
      hold: true,
      timeOffsetMs: 3_600_000,
      clockSkewMs: 3_000,
    });
    const empty = new ChainControlFiles(new Layout(join(dir, 'other')), {
      node: () => ({ copyHomeFile: async () => {} }),
    });
    await empty.seed('validator-2', ['validator-0'], 0);
    await assert.rejects(readFile(join(dir, 'other', 'nodes', 'validator-2', CHAIN_CONTROL_FILE)));
  });

  it('says the chain time in one line', () => {
    const base = { hold: false, mine_to_height: null, block_time_ms: null, time_offset_ms: 0 };
    assert.equal(describeChainTime({ ...base, clock_skew_ms: { 'validator-0': 0 } }), 'chain running');
    assert.equal(
      describeChainTime({
        hold: true,
        mine_to_height: 250,
        block_time_ms: 2_000,
        time_offset_ms: 3_600_000,
        clock_skew_ms: { 'validator-1': -10_000, 'validator-2': 10_000, 'validator-3': 0 },
      }),
      'chain held, mining to 250, blocks every 2s, chain time +1h; clocks validator-1 -10s, validator-2 +10s',
    );
  });
});

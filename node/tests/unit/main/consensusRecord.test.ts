/**
 * The node's record file: lines appended a height at a time, rotated past its bound into .1 at a
 * height (the older file then the newer read as one sequence, nothing lost or doubled), and a
 * write that fails logged once while the node goes on.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import type { RecordEntry } from '../../../src/consensus/record/format.js';
import { parseRecord } from '../../../src/consensus/record/parse.js';
import { OLDER_RECORD_FILE, RECORD_FILE, RecordFile } from '../../../src/main/consensusRecord.js';

const height = (h: number): RecordEntry => ({
  k: 'height',
  format: 'chain-consensus-record/v1',
  t: h,
  height: h,
  chain_id: 'c',
  validators: [],
  signer: null,
  timeouts: { propose: [1], prevote: [1], precommit: [1] },
});

describe("the node's consensus record file", () => {
  it('rotates at a height past its bound; the older file then the newer hold every line once', async () => {
    const home = await mkdtemp(join(tmpdir(), 'record-file-'));
    try {
      const f = await RecordFile.open(home, memoryLogger(), 2_000);
      const written: RecordEntry[] = [];
      for (let h = 1; h <= 40; h++)
        for (const e of [height(h), { k: 'start', t: h } as const, { k: 'out', actions: [] } as const]) {
          f.write(e);
          written.push(e);
        }
      await f.flush();
      const older = await readFile(join(home, OLDER_RECORD_FILE), 'utf8');
      const newer = await readFile(join(home, RECORD_FILE), 'utf8');
      assert.ok(newer.length < 2_500, 'the newer file is within its bound');
      assert.ok(parseRecord(newer, 'newer')[0]?.k === 'height', 'a rotated file starts at a height');
      const both = [...parseRecord(older, 'older'), ...parseRecord(newer, 'newer')];
      // The files before the last rotation were dropped: what is kept is the tail, whole and in order.
      assert.deepEqual(both, written.slice(written.length - both.length));
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('a write that fails is logged once and the record stops; nothing throws', async () => {
    const logger = memoryLogger();
    const f = await RecordFile.open(join(tmpdir(), 'no-such-folder-for-records', 'x'), logger);
    for (let h = 1; h <= 5; h++) f.write(height(h));
    await f.flush();
    assert.equal(logger.lines.filter((l) => l.level === 'error').length, 1);
  });
});

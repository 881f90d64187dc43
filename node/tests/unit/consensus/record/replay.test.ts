/**
 * A node's consensus record replayed into this build's core: a simulated run with a crash, a
 * restart (the signer's resume) and a partition replays to the same actions at every input and
 * the same decisions as the chain's heights; a record tampered with (another action recorded, an
 * input changed) is a divergence named by its height, line and input; a record cut off mid-height
 * replays up to where it ends; and a record written to JSON lines and read back is the same record.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { RecordEntry } from '../../../../src/consensus/record/format.js';
import { replayRecord } from '../../../../src/consensus/record/replay.js';
import { SimCluster } from '../../../../src/sim/simCluster.js';

let record: RecordEntry[] = [];
let committed = 0;

describe('consensus records', () => {
  before(async () => {
    const cluster = await SimCluster.open({ seed: 'record', validators: 4, record: true });
    try {
      await cluster.runUntil(() => cluster.allAt(6), 60_000);
      // Killed just after its prevote, before the height is decided, and back at once: it
      // resumes that height from what its signer kept.
      const own = cluster.node('validator-1').record!;
      const justPrevoted = () => {
        const last = own.findLast((e) => e.k === 'signed');
        return last?.k === 'signed' && last.step === 'prevote';
      };
      assert.ok(await cluster.runUntil(justPrevoted, 10_000));
      await cluster.apply({ kind: 'crash', node: 'validator-1' });
      await cluster.apply({ kind: 'restart', node: 'validator-1' });
      await cluster.runUntil(() => cluster.allAt(8), 60_000);
      // Down for heights, back by block sync.
      await cluster.apply({ kind: 'crash', node: 'validator-1' });
      await cluster.runUntil(() => cluster.allAt(10, ['validator-0', 'validator-2', 'validator-3']), 60_000);
      await cluster.apply({ kind: 'restart', node: 'validator-1' });
      await cluster.apply({ kind: 'partition', group: ['validator-1'], oneWay: false });
      await cluster.runTo(cluster.elapsedMs + 8_000);
      await cluster.apply({ kind: 'heal' });
      await cluster.runUntil(() => cluster.allAt(cluster.head + 3), 60_000);
      record = JSON.parse(JSON.stringify(cluster.node('validator-1').record)) as RecordEntry[];
      committed = cluster.node('validator-1').height;
    } finally {
      await cluster.close();
    }
  });

  it('a run with a crash, a restart and a partition replays to the same actions and decisions', () => {
    assert.ok(
      record.some((e) => e.k === 'resume' && e.resume !== null),
      'the restart resumed from the signer',
    );
    const r = replayRecord(record);
    assert.equal(r.divergence, null, JSON.stringify(r.divergence));
    assert.equal(r.from, 1);
    assert.ok(r.inputs > 10 * 4, `${r.inputs} inputs`);
    // Decided in consensus by this node: every height it did not fetch by block sync.
    const entered = new Set(record.flatMap((e) => (e.k === 'height' ? [e.height] : [])));
    assert.ok(
      r.decisions >= 8 && r.decisions <= committed,
      `${r.decisions} decisions of ${committed} heights`,
    );
    assert.ok(entered.size >= r.decisions);
  });

  it('another action recorded is a divergence naming the height, the line and the input', () => {
    const at = record.findIndex(
      (e) => e.k === 'out' && e.actions.some((a) => a.kind === 'vote' && a.block_hash !== null),
    );
    const tampered = record.map((e, i) =>
      i === at && e.k === 'out'
        ? { ...e, actions: e.actions.map((a) => (a.kind === 'vote' ? { ...a, block_hash: null } : a)) }
        : e,
    );
    const r = replayRecord(tampered);
    assert.ok(r.divergence !== null);
    assert.equal(r.divergence.line, at + 1);
    assert.match(r.divergence.recorded, /"block_hash":null/);
    assert.doesNotMatch(r.divergence.replayed, /"kind":"vote","vote":"[a-z]+","round":\d+,"block_hash":null/);
    const heightOf = record.slice(0, at).findLast((e) => e.k === 'height');
    assert.equal(r.divergence.height, heightOf?.k === 'height' ? heightOf.height : -1);
  });

  it('an input left out is a divergence: the core asks for what the record does not have', () => {
    const at = record.findIndex((e, i) => i > 20 && e.k === 'vote');
    const r = replayRecord([...record.slice(0, at), ...record.slice(at + 1)]);
    assert.ok(r.divergence !== null, 'a vote left out changes what the core does or asks');
  });

  it('a record cut off mid-height, or starting mid-way, replays up to where it ends', () => {
    const lastHeight = record.findLastIndex((e) => e.k === 'height');
    const cut = record.slice(0, lastHeight + 3);
    assert.equal(replayRecord(cut).divergence, null);
    const later = record.findIndex((e, i) => i > 50 && e.k === 'height');
    const r = replayRecord(record.slice(later - 5));
    assert.equal(r.divergence, null);
    assert.ok((r.from ?? 0) > 1);
  });
});

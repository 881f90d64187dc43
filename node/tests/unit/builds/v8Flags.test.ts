/**
 * The V8 flags of a devnet's Node programs: the young generation stays at its cap under a burst
 * of allocation (without the flag it grows to 16 MiB and more, and stays), and the node
 * image's ENTRYPOINT starts the node with the same flags as the process runtime.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProgram } from '@chain-devnet/kit/process';
import { NODE_ENV, NODE_V8_FLAGS } from '../../../src/builds/index.js';

/** A burst of short-lived objects, then the young generation's size, printed. */
const BURST = `
const keep = [];
for (let i = 0; i < 3e5; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 2e4) keep.length = 0; }
const s = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
console.log(s.space_size);`;

async function newSpaceAfterBurst(flags: readonly string[]): Promise<number> {
  const r = await runProgram({ args: [...flags, '-e', BURST] });
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

/**
 * About 8 MiB of objects kept, replaced a piece at a time: each lives long enough to be promoted
 * to the old generation, then dies (as a node's blocks, votes and gossip caches do). Prints the
 * old generation's largest committed size along the way: its size at the end depends on where
 * the last collection fell (on a loaded machine the two runs ended 40 and 39 MiB), its peak on
 * how far it may grow before one.
 */
const CHURN = `
const v8 = require('v8');
const old = () => v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space').space_size;
const live = new Array(64).fill(null);
let peak = 0;
for (let round = 0; round < 600; round++) {
  const chunk = [];
  for (let i = 0; i < 2000; i++) chunk.push({ i, s: 'x' + i + round, a: [i, round] });
  live[round % 64] = chunk;
  if (round % 4 === 0) peak = Math.max(peak, old());
}
console.log(Math.max(peak, old()));`;

async function oldSpaceAfterChurn(flags: readonly string[]): Promise<number> {
  const r = await runProgram({ args: [...flags, '-e', CHURN] });
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

describe('NODE_V8_FLAGS', () => {
  it('keep the young generation small through a burst that grows it without them', async () => {
    const MiB = 1024 * 1024;
    // Node 20 reports twice the semi-space (both halves): 8 MiB for 4 MiB, 16 MiB and more for
    // V8's default.
    const capped = await newSpaceAfterBurst(NODE_V8_FLAGS);
    const grown = await newSpaceAfterBurst([]);
    assert.ok(capped <= 8 * MiB, `with the flags: ${capped}`);
    assert.ok(grown >= 16 * MiB, `without: ${grown}`);
  });

  it('keep the old generation near its live data through a churn of promoted garbage', async () => {
    // The largest old generation through the churn: V8 lets it about double between full
    // collections without the flags, 10% with them.
    const kept = await oldSpaceAfterChurn(NODE_V8_FLAGS);
    const grown = await oldSpaceAfterChurn([]);
    assert.ok(kept < 0.7 * grown, `largest with the flags: ${kept}, without: ${grown}`);
  });

  it('are the flags of the node image: its entrypoint, and the code caches it checks', async () => {
    const dockerfile = await readFile(
      fileURLToPath(new URL('../../../../Dockerfile', import.meta.url)),
      'utf8',
    );
    const line = /^ENTRYPOINT (.*)$/m.exec(dockerfile);
    assert.ok(line !== null, 'node/Dockerfile has an ENTRYPOINT');
    assert.deepEqual(JSON.parse(line[1]!), ['node', ...NODE_V8_FLAGS, '/app/dist/bundle/chain-node.mjs']);
    const runs = [...dockerfile.matchAll(/^RUN (\[.*--ensure-code-cache.*\])$/gm)].map((m) =>
      JSON.parse(m[1]!),
    );
    assert.deepEqual(runs, [
      ['node', ...NODE_V8_FLAGS, '/app/dist/bundle/chain-node.mjs', '--ensure-code-cache'],
      ['node', ...NODE_V8_FLAGS, '/app/dist/bundle/chain-market.mjs', '--ensure-code-cache'],
    ]);
    for (const [k, v] of Object.entries(NODE_ENV))
      assert.match(dockerfile, new RegExp(`^ENV ${k}=${v}$`, 'm'));
  });
});

/**
 * The cost of the double-sign protection (docs/BENCHMARKS.md, "Priv-validator state"):
 *   1. One durable write of priv_validator_state.json (temp file, fsync, rename, fsync of the
 *      folder) against one signature alone, in the folder the nodes' homes go to.
 *   2. Side by side in one run: a 4-validator network of this code and one of another build
 *      (`--compare PATH`: its dist/node/src/bin/chain-node.js, e.g. main's), alternating round by
 *      round, each run for the same number of heights at a tight block time: milliseconds per
 *      height, CPU per height per node, and for this code the writes and fsync time per height.
 * Bounded: fixed counts, each wait with a time limit.
 *   npm run bench:privval -- [--compare PATH] [--rounds 3] [--heights 60] [--block-time 100]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { voteBytes } from '../src/chain/index.js';
import { sha256 } from '../src/crypto/hash.js';
import { bytesToHex } from '../src/crypto/hex.js';
import { signDigestHex } from '../src/crypto/signature.js';
import { writePrivValidatorState } from '../src/home/privValidator.js';
import { key } from '../tests/fixtures.js';
import { Cluster, type ClusterNode } from '../tests/support/cluster.js';
import { CHAIN_NODE } from '../tests/support/processes.js';

const { values } = parseBenchArgs({
  options: {
    compare: { type: 'string' },
    rounds: { type: 'string' },
    heights: { type: 'string' },
    'block-time': { type: 'string' },
    writes: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 3);
const HEIGHTS = Number(values.heights ?? 60);
const BLOCK_MS = Number(values['block-time'] ?? 100);
const WRITES = Number(values.writes ?? 300);

const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};
const median = (xs: readonly number[]) => quantile(xs, 0.5);
const f = (x: number, digits = 2) => x.toFixed(digits);

async function writeCost(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'privval-bench-'));
  const k = key('bench');
  const micros = (started: bigint) => Number(process.hrtime.bigint() - started) / 1000;
  const writes: number[] = [];
  const signs: number[] = [];
  try {
    for (let i = 1; i <= WRITES; i++) {
      const bytes = voteBytes('chain-devnet-1', 'prevote', i, 0, null);
      const t0 = process.hrtime.bigint();
      const signature = signDigestHex(sha256(bytes), k.privateKey);
      signs.push(micros(t0));
      const t1 = process.hrtime.bigint();
      writePrivValidatorState(
        join(dir, 'priv_validator_state.json'),
        { height: i, round: 0, step: 'prevote', blockHash: null, signBytes: bytesToHex(bytes), signature },
        null,
      );
      writes.push(micros(t1));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return [
    `| one signature (sign only) | ${f(median(signs), 0)} µs | ${f(quantile(signs, 0.99), 0)} µs |`,
    `| one durable write (2 fsyncs) | ${f(median(writes), 0)} µs | ${f(quantile(writes, 0.99), 0)} µs |`,
  ].join('\n');
}

async function metricsOf(n: ClusterNode): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${n.rpcPort}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

interface Run {
  msPerHeight: number;
  cpuMsPerHeight: number;
  writesPerHeight: number | null;
  writeMsPerHeight: number | null;
}

/** One network of `program` for HEIGHTS heights after a warm-up: per height, over its 4 nodes. */
async function run(program: string): Promise<Run> {
  const c = await Cluster.create(4, BLOCK_MS, { epoch_length: 1_000_000 }, program);
  try {
    c.startAll();
    await c.waitForHeight(5, undefined, 60_000);
    const before = await Promise.all(c.nodes.map(metricsOf));
    const h0 = await c.height(0);
    const t0 = Date.now();
    await c.waitForHeight(h0 + HEIGHTS, [0], 5 * 60_000);
    const elapsed = Date.now() - t0;
    const after = await Promise.all(c.nodes.map(metricsOf));
    const h1 = await c.height(0);
    const delta = (name: string) =>
      after.reduce((s, m, i) => s + (m.get(name) ?? 0) - (before[i]!.get(name) ?? 0), 0);
    const heights = h1 - h0;
    const hasWrites = after.some((m) => m.has('chain_priv_validator_write_seconds_count'));
    return {
      msPerHeight: elapsed / HEIGHTS,
      cpuMsPerHeight: (1000 * delta('process_cpu_seconds_total')) / c.nodes.length / heights,
      writesPerHeight: hasWrites
        ? delta('chain_priv_validator_write_seconds_count') / c.nodes.length / heights
        : null,
      writeMsPerHeight: hasWrites
        ? (1000 * delta('chain_priv_validator_write_seconds_sum')) / c.nodes.length / heights
        : null,
    };
  } finally {
    await c.stopAll();
  }
}

async function main(): Promise<void> {
  process.stdout.write(`Priv-validator state cost (${WRITES} writes in ${tmpdir()})\n\n`);
  process.stdout.write(`| step | median | p99 |\n|---|---|---|\n${await writeCost()}\n\n`);
  const programs: [string, string][] = [['this build', CHAIN_NODE]];
  if (values.compare !== undefined) programs.push([`compared (${values.compare})`, values.compare]);
  const runs = new Map<string, Run[]>(programs.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate the order round by round: neither build always runs on a warmer machine.
    const order = r % 2 === 0 ? programs : [...programs].reverse();
    for (const [name, program] of order) {
      const result = await run(program);
      runs.get(name)!.push(result);
      process.stderr.write(`round ${r + 1} ${name}: ${JSON.stringify(result)}\n`);
    }
  }
  process.stdout.write(
    `4 validators, ${BLOCK_MS} ms blocks, ${HEIGHTS} heights per run, ${ROUNDS} runs each (medians, range):\n\n`,
  );
  process.stdout.write(
    '| build | ms per height | CPU ms per height per node | state writes per height per node | write time per height per node |\n|---|---|---|---|---|\n',
  );
  for (const [name] of programs) {
    const rs = runs.get(name)!;
    const cell = (pick: (r: Run) => number | null, digits: number) => {
      const xs = rs.map(pick).filter((x): x is number => x !== null);
      return xs.length === 0
        ? '—'
        : `${f(median(xs), digits)} (${f(Math.min(...xs), digits)}–${f(Math.max(...xs), digits)})`;
    };
    process.stdout.write(
      `| ${name} | ${cell((r) => r.msPerHeight, 1)} | ${cell((r) => r.cpuMsPerHeight, 1)} | ${cell((r) => r.writesPerHeight, 2)} | ${cell((r) => r.writeMsPerHeight, 2)} ms |\n`,
    );
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});

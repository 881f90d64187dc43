/**
 * Benchmark: how long a node cut off and let back takes to have every peer again (not just one to
 * sync from). Per round a devnet of 4 validators and one added node (5 nodes: 4 peers each) on
 * one runtime; validator-1 is restarted, then cut off (`disconnect`) and let back (`connect`)
 * --cuts times. Each cut waits until the node has no peer left (libp2p's ping closes a silent
 * connection within about 27 s), and each connect is timed until `devnet status` shows all 4
 * peers, polled every second (bounded: --limit seconds; a cut that reaches it counts as the limit).
 * The first cut after the restart and the later ones are reported apart: the first is where a
 * node handing out an address its peers cannot reach cost most (docs/BENCHMARKS.md).
 *
 *   npm run build && node devnet/dist/bench/reconnect.js [--rounds 2] [--cuts 3] [--runtime docker] [--limit 180]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import { pause } from '@chain-devnet/kit/wait';
import { devnetCli, devnetJson } from '../src/harness/cli.js';
import { freeDevnetBase } from '../src/harness/ports.js';
import type { StatusJson } from '../src/json/jsonShapes.js';

const { values } = parseBenchArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    cuts: { type: 'string', default: '3' },
    runtime: { type: 'string', default: 'docker' },
    limit: { type: 'string', default: '180' },
  },
});
const rounds = Number(values.rounds);
const cuts = Number(values.cuts);
const limitMs = Number(values.limit) * 1000;
const NODE = 'validator-1';
const PEERS = 4;

const dir = await mkdtemp(join(tmpdir(), 'devnet-bench-reconnect-'));
const first: number[] = [];
const later: number[] = [];
let home = '';

async function cli(...args: string[]): Promise<void> {
  const r = await devnetCli([...args, '--home', home], { timeoutMs: 300_000 });
  if (r.code !== 0) throw new Error(`devnet ${args.join(' ')}: ${r.stderr}`);
}

async function peers(): Promise<number> {
  const s = await devnetJson<StatusJson>(['status', '--home', home]).catch(() => null);
  return s?.nodes.find((n) => n.name === NODE)?.peers ?? -1;
}

/** Milliseconds until the node has `want` peers, polled every second, at most `limitMs`. */
async function until(want: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if ((await peers()) === want) return performance.now() - started;
    await pause(1000);
  }
  return limitMs;
}

try {
  for (let r = 0; r < rounds; r++) {
    home = join(dir, `round-${r}`);
    const base = await freeDevnetBase(5);
    await cli(
      'up',
      '--runtime',
      values.runtime,
      '--validators',
      '4',
      '--no-monitoring',
      '--base-port',
      String(base),
    );
    await cli('add');
    await cli('restart', NODE);
    await until(PEERS);
    for (let c = 0; c < cuts; c++) {
      await cli('disconnect', NODE);
      await until(0);
      await cli('connect', NODE);
      const ms = await until(PEERS);
      (c === 0 ? first : later).push(ms);
      console.log(`round ${r + 1} cut ${c + 1}: every peer back ${(ms / 1000).toFixed(0)} s after connect`);
    }
    await cli('down');
  }
} finally {
  if (home !== '') await devnetCli(['down', '--home', home]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}
const s = (xs: number[]) =>
  `${(median(xs) / 1000).toFixed(0)} s | ${(Math.min(...xs) / 1000).toFixed(0)}–${(Math.max(...xs) / 1000).toFixed(0)} s | ${xs.length}`;
console.log(`\n| ${values.runtime}: every peer back after connect | median | range | cuts |`);
console.log('|---|---|---|---|');
console.log(`| first cut after a restart | ${s(first)} |`);
if (later.length > 0) console.log(`| later cuts | ${s(later)} |`);

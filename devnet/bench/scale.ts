/**
 * Benchmark: does this machine run N validators at a block time with no missed slot? Brings up
 * a devnet (monitoring off), waits for B blocks after the first, then checks every block's
 * round on validator-0 (round 0 = the scheduled proposer delivered; any higher round is a missed
 * slot) and that every node has the same hash at the last height. Memory per node is each node's
 * own process_resident_memory_bytes, sampled every 10 s: the median over nodes of each node's
 * peak, and the largest peak; on processes also each node's PSS (procMemory.ts: its shared pages
 * divided among the nodes, what it costs the machine), the median of peaks. On threads (every
 * node a thread of one host process) the host's RSS and PSS divided by N, and the host's CPU.
 *
 * For every block not decided in round 0 it prints the nodes' own log lines about that height
 * (process runtime): who timed out waiting for which proposer, how late, and who entered late.
 *
 *   npm run build && node devnet/dist/bench/scale.js --validators 21 [--blocks 300] [--block-time 1s] [--runtime process|threads]
 *     [--runs 1] [--builds ../main,.] [--keep-home]
 *
 * With --builds (builds.ts) each run brings up one devnet per build, the builds alternating, and
 * the table has a row per devnet: main beside this checkout in one run. The CPU per node is the
 * nodes' CPU over the measured blocks divided among them, in ms of CPU per second.
 *
 * --keep-home leaves the devnet running and its home (logs included) in place; stop it with
 * `devnet down --home DIR`.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median, parseDuration } from '@chain-devnet/kit/values';
import { waitForOrNull } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { freeDevnetBase } from '../src/harness/ports.js';
import type { UpJson } from '../src/json/jsonShapes.js';
import { buildLabel, buildsOf, cleanUpOnStop, devnetOf } from './builds.js';
import { pidOf, procMemory } from './procMemory.js';

const { values } = parseBenchArgs({
  options: {
    validators: { type: 'string', default: '21' },
    blocks: { type: 'string', default: '300' },
    'block-time': { type: 'string', default: '1s' },
    runtime: { type: 'string', default: 'process' },
    'keep-home': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    builds: { type: 'string', default: '.' },
  },
});
const n = Number(values.validators);
const blocks = Number(values.blocks);
const blockTimeMs = parseDuration(values['block-time']) ?? Number.NaN;
if (Number.isNaN(blockTimeMs)) throw new Error(`--block-time: not a duration: ${values['block-time']}`);

const builds = buildsOf(values.builds);
const rows: string[] = [];
const dir = await mkdtemp(join(tmpdir(), 'devnet-bench-scale-'));
let current: ((duringStop?: boolean) => Promise<unknown>) | null = null;
// Stopped (Ctrl-C, or `kill`): the devnet being measured is taken down before the bench exits.
cleanUpOnStop(async () => {
  await current?.(true);
  await rm(dir, { recursive: true, force: true });
});
for (let r = 0; r < Number(values.runs); r++)
  for (const build of builds) rows.push(await measure(build, join(dir, `${r}-${builds.indexOf(build)}`)));
if (!values['keep-home']) await rm(dir, { recursive: true, force: true });
console.log(
  '\n| build | runtime | validators | block time | devnet up | blocks checked | missed slots (rounds > 0) | one hash everywhere | RSS per node, median of peaks | largest peak | PSS per node, median of peaks | CPU of all nodes | CPU per node |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);

/** One devnet of `build` brought up in `home`, measured, and taken down: its row of the table. */
async function measure(build: string, home: string): Promise<string> {
  const down = (duringStop = false) => devnetOf(build, ['down', '--home', home], undefined, duringStop);
  current = down;
  let troubled = false;
  let row = `| ${buildLabel(build)} | ${values.runtime} | ${n} | ${values['block-time']} | failed |`;
  try {
    const started = performance.now();
    const up = JSON.parse(
      await devnetOf(build, [
        'up',
        '--home',
        home,
        '--runtime',
        values.runtime,
        '--validators',
        String(n),
        '--block-time',
        values['block-time'],
        '--no-monitoring',
        '--base-port',
        String(await freeDevnetBase(n)),
        '--json',
      ]),
    ) as UpJson;
    const upSeconds = (performance.now() - started) / 1000;
    console.log(`${buildLabel(build)} up: ${n} validators in ${upSeconds.toFixed(1)} s`);
    const clients = up.nodes.map((x) => new RpcClient(x.rpc, 10_000));
    const first = (await clients[0]!.status()).height;
    const target = first + blocks;
    const peakRss = new Map<number, number>();
    const peakPss = new Map<number, number>();
    const cpuSeconds = new Map<number, number>();
    // On threads every node's process metrics are the host's: its memory is shared among them and
    // its CPU counted once.
    const hostPid =
      values.runtime === 'threads' ? await pidOf(join(home, 'threads', 'host.pid')).catch(() => null) : null;
    const sampleHost = async (pid: number) => {
      const m = await procMemory(pid);
      for (let i = 0; i < n; i++) {
        peakRss.set(i, Math.max(peakRss.get(i) ?? 0, (m.rss * 1024 * 1024) / n));
        peakPss.set(i, Math.max(peakPss.get(i) ?? 0, m.pss / n));
      }
      const cpu = /^process_cpu_seconds_total\s+(\S+)/m.exec(await clients[0]!.metrics());
      if (cpu) cpuSeconds.set(0, Number(cpu[1]));
    };
    const sample = async () => {
      if (hostPid !== null) return sampleHost(hostPid);
      await Promise.all(
        clients.map(async (c, i) => {
          if (values.runtime === 'process') {
            const pid = await pidOf(join(home, 'run', `${up.nodes[i]!.name}.pid`)).catch(() => null);
            const m = pid === null ? null : await procMemory(pid).catch(() => null);
            if (m !== null && !Number.isNaN(m.pss)) peakPss.set(i, Math.max(peakPss.get(i) ?? 0, m.pss));
          }
          const text = await c.metrics();
          const m = /^process_resident_memory_bytes\s+(\S+)/m.exec(text);
          if (m) peakRss.set(i, Math.max(peakRss.get(i) ?? 0, Number(m[1])));
          const cpu = /^process_cpu_seconds_total\s+(\S+)/m.exec(text);
          if (cpu) cpuSeconds.set(i, Number(cpu[1]));
        }),
      );
    };
    // CPU of all nodes over the measured blocks, in cores: how close the machine ran to its 2.
    await sample().catch(() => undefined);
    const cpuAtFirst = [...cpuSeconds.values()].reduce((a, b) => a + b, 0);
    const wallAtFirst = performance.now();
    // A run whose chain halts or crawls ends with what it has, not never: 3 block times a block.
    // Every 10 s: a memory and CPU sample, and validator-0's height.
    let reached = first;
    const arrived = await waitForOrNull(
      `validator-0 at height ${target}`,
      60_000 + blocks * 3 * blockTimeMs,
      async () => {
        await sample().catch(() => undefined);
        // A node too busy to answer in 10 s is part of what is measured, not a reason to stop.
        const h = await clients[0]!.status().then(
          (st) => st.height,
          (e: Error) => {
            console.log(`\nvalidator-0 did not answer /status: ${e.message}`);
            return 0;
          },
        );
        reached = Math.max(reached, h);
        process.stdout.write(`\rheight ${h} / ${target}   `);
        return h >= target;
      },
      { pollMs: 10_000 },
    );
    if (arrived === null) {
      console.log(`\ngave up waiting for height ${target}: validator-0 is at ${reached}`);
      troubled = true;
    }
    console.log('');
    await sample().catch(() => undefined);
    const cores =
      ([...cpuSeconds.values()].reduce((a, b) => a + b, 0) - cpuAtFirst) /
      ((performance.now() - wallAtFirst) / 1000);
    let missed = 0;
    const late: string[] = [];
    for (let h = first + 1; h <= Math.min(target, reached); h++) {
      const b = await clients[0]!.block(h);
      if (b.header.round > 0) {
        missed += b.header.round;
        late.push(`${h} (round ${b.header.round})`);
      }
    }
    console.log(`nodes' CPU over the measured blocks: ${cores.toFixed(2)} cores`);
    const records = values.runtime === 'process' ? await readNodeLogs(home) : [];
    commitTiming(records, first + 1, target);
    if (late.length > 0) {
      troubled = true;
      console.log(`blocks not in round 0: ${late.join(', ')}`);
      explainLateHeights(
        records,
        late.map((x) => Number.parseInt(x, 10)),
      );
    }
    // Every node's header at the last height; a node that does not have it says where it is.
    const hashes = await Promise.all(
      clients.map(async (c, i) => {
        try {
          return JSON.stringify((await c.block(target)).header);
        } catch (e) {
          const where = await c.status().then(
            (st) => `at height ${st.height}`,
            (err: Error) => `not answering (${err.message})`,
          );
          console.log(`validator-${i} does not have block ${target}: ${where} (${(e as Error).message})`);
          troubled = true;
          return `missing ${i}`;
        }
      }),
    );
    const rss = [...peakRss.values()].map((b) => b / 1024 / 1024);
    const pss = peakPss.size > 0 ? `${median([...peakPss.values()]).toFixed(0)} MiB` : '—';
    row = `| ${buildLabel(build)} | ${values.runtime} | ${n} | ${values['block-time']} | ${upSeconds.toFixed(1)} s | ${blocks} (heights ${first + 1}-${target}) | ${missed} | ${new Set(hashes).size === 1 ? 'yes' : 'NO'} | ${median(rss).toFixed(0)} MiB | ${Math.max(...rss).toFixed(0)} MiB | ${pss} | ${cores.toFixed(2)} cores | ${((cores / n) * 1000).toFixed(0)} ms/s |`;
    console.log(row);
  } catch (e) {
    // A devnet that did not come up (or failed later) is a row of the table, not the end of the run.
    troubled = true;
    console.log(`${buildLabel(build)}: failed: ${(e as Error).message.slice(0, 500)}`);
  } finally {
    // The nodes' logs outlive a run that missed a slot, lost a node or failed: they say why. Kept
    // beside the run's folder, which is removed at the end.
    if (troubled && !values['keep-home']) {
      const kept = await mkdtemp(join(tmpdir(), 'devnet-bench-scale-logs-'));
      await cp(join(home, 'logs'), kept, { recursive: true }).catch(() => undefined);
      console.log(`the nodes' logs are kept in ${kept}`);
    }
    if (values['keep-home'])
      console.log(`devnet home kept (stop it with: devnet down --home ${home}): ${home}`);
    else {
      await down();
      await rm(home, { recursive: true, force: true });
    }
  }
  return row;
}

type LogRecord = { node: string; height?: unknown; msg?: unknown; time?: unknown } & Record<string, unknown>;

/** Every JSON record of every node's log file (process runtime). */
async function readNodeLogs(home: string): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  for (let i = 0; i < n; i++) {
    const text = await readFile(join(home, 'logs', `validator-${i}.log`), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        records.push({ ...(JSON.parse(line) as Record<string, unknown>), node: `validator-${i}` });
      } catch {
        // not a log record
      }
    }
  }
  return records;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function spread(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${quantile(s, 0.5).toFixed(2)} s, p90 ${quantile(s, 0.9).toFixed(2)} s, p99 ${quantile(s, 0.99).toFixed(2)} s, max ${s[s.length - 1]!.toFixed(2)} s`;
}

/**
 * When each node committed each measured height (its 'block committed' log line): the time
 * between heights (median over nodes) and how far each node's commit trails the first node's.
 * A proposer that trails by more than the propose timeout loses its slot although it is up.
 */
function commitTiming(records: LogRecord[], from: number, to: number): void {
  const byHeight = new Map<number, number[]>();
  for (const r of records) {
    if (r.msg !== 'block committed' || typeof r.height !== 'number' || r.height < from || r.height > to)
      continue;
    const list = byHeight.get(r.height) ?? [];
    list.push(Date.parse(String(r.time)) / 1000);
    byHeight.set(r.height, list);
  }
  const intervals: number[] = [];
  const trails: number[] = [];
  for (const [h, times] of byHeight) {
    const before = byHeight.get(h - 1);
    if (before) intervals.push(median(times) - median(before));
    const firstAt = Math.min(...times);
    for (const t of times) trails.push(t - firstAt);
  }
  if (intervals.length === 0) return;
  console.log(`time between heights (median commit over nodes): ${spread(intervals)}`);
  console.log(
    `a node's commit behind the first node's: ${spread(trails)}; over 1 s: ${trails.filter((x) => x > 1).length} of ${trails.length}`,
  );
}

/**
 * For each missed slot, the nodes' own account of it: which timed out waiting for the proposal
 * and how late their timer fired, who entered the height late (the proposer among them delays
 * its proposal), and where the proposal arrived after the timeout.
 */
function explainLateHeights(records: LogRecord[], heights: number[]): void {
  for (const h of heights) {
    console.log(`  height ${h}:`);
    const lines = records
      .filter((r) => r.height === h && r.msg !== 'block committed')
      .map(
        ({ node, msg, time, level: _level, height: _height, ...rest }) =>
          `${String(time).slice(11, 23)} ${node}: ${String(msg)} ${JSON.stringify(rest)}`,
      )
      .sort();
    for (const l of lines) console.log(`    ${l}`);
  }
}

/**
 * Benchmark: resident memory of each node after a minute idle, and the wall time of `devnet up`
 * (4 validators on processes, or on each of --runtimes, monitoring off, the panel on as by default) until every node has a
 * final block, for one or more builds of this repository side by side in one run: R rounds, the
 * builds alternating round by round, medians and ranges. A build is a checkout's root, built
 * (npm run build; builds.ts); its own bundled CLI starts its own nodes, so `--builds ../main,.` compares
 * main with this checkout on the same machine in the same hour (docs/BENCHMARKS.md, "Memory and
 * start-up of an idle node").
 *
 * Per node: VmRSS from /proc (what `ps` and process_resident_memory_bytes say), split into
 * RssAnon (heap, malloc: the process's own) and RssFile (mapped files, mostly the node binary's
 * pages, shared between the nodes), and Pss (procMemory.ts: what the node costs the machine);
 * and from the node's /metrics V8's heap (committed and used) and external memory. The panel's
 * RSS is given apart. On the threads runtime every node is a thread of one host process: a node's
 * share is the host's VmRSS, RssAnon, RssFile and Pss divided by the number of nodes, its heap
 * and external memory its own (V8's figures are an isolate's, and a thread has its own).
 *
 *   npm run build && node devnet/dist/bench/memory.js [--rounds 3] [--idle 60] [--validators 4] [--builds DIR,DIR]
 *     [--runtimes process,threads]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import { freeDevnetBase } from '../src/harness/ports.js';
import { buildsOf, devnetOf } from './builds.js';
import { pidOf, procMemory } from './procMemory.js';

const { values } = parseBenchArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    idle: { type: 'string', default: '60' },
    validators: { type: 'string', default: '4' },
    builds: { type: 'string', default: '.' },
    runtimes: { type: 'string', default: 'process' },
  },
});
const rounds = Number(values.rounds);
const idleMs = Number(values.idle) * 1000;
const validators = Number(values.validators);
const builds = buildsOf(values.builds);
const runtimes = values.runtimes.split(',');
/** A column of the table: a build on a runtime. */
const runs = builds.flatMap((build) => runtimes.map((runtime) => ({ build, runtime })));
const keyOf = (r: { build: string; runtime: string }) => `${r.build} ${r.runtime}`;

/** A metric's value in MiB from a node's /metrics text. */
function metric(text: string, name: string): number {
  const m = new RegExp(`^${name} ([0-9.e+]+)$`, 'm').exec(text);
  return m === null ? Number.NaN : Number(m[1]) / 1048576;
}

interface Sample {
  rss: number;
  anon: number;
  file: number;
  pss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** A process's memory, or its `share` of it (a node's of its threads host: 1 / nodes). */
async function sampleOf(pidFile: string, metricsUrl: string | null, share = 1): Promise<Sample> {
  const m = await procMemory(await pidOf(pidFile));
  const memory = { rss: m.rss * share, anon: m.anon * share, file: m.file * share, pss: m.pss * share };
  const text = metricsUrl === null ? '' : await (await fetch(metricsUrl)).text();
  return {
    ...memory,
    heapTotal: metric(text, 'nodejs_heap_size_total_bytes'),
    heapUsed: metric(text, 'nodejs_heap_size_used_bytes'),
    external: metric(text, 'nodejs_external_memory_bytes'),
  };
}

type Figures = { up: number[]; nodes: Sample[]; panel: number[] };
const results = new Map<string, Figures>(runs.map((r) => [keyOf(r), { up: [], nodes: [], panel: [] }]));
const dir = await mkdtemp(join(tmpdir(), 'devnet-bench-memory-'));
try {
  for (let r = 0; r < rounds; r++) {
    for (const run of runs) {
      const { build, runtime } = run;
      const home = join(dir, `${r}-${runs.indexOf(run)}`);
      const base = await freeDevnetBase(validators);
      const f = results.get(keyOf(run))!;
      const began = performance.now();
      await devnetOf(build, [
        'up',
        '--home',
        home,
        '--runtime',
        runtime,
        '--validators',
        String(validators),
        '--no-monitoring',
        '--base-port',
        String(base),
      ]);
      f.up.push(performance.now() - began);
      try {
        await sleep(idleMs);
        for (let i = 0; i < validators; i++)
          f.nodes.push(
            runtime === 'threads'
              ? await sampleOf(
                  join(home, 'threads', 'host.pid'),
                  `http://127.0.0.1:${base + i}/metrics`,
                  1 / validators,
                )
              : await sampleOf(
                  join(home, 'run', `validator-${i}.pid`),
                  `http://127.0.0.1:${base + i}/metrics`,
                ),
          );
        f.panel.push((await sampleOf(join(home, 'ui', 'panel.pid'), null)).rss);
      } finally {
        await devnetOf(build, ['down', '--home', home]);
      }
      const n = f.nodes.slice(-validators);
      console.log(
        `round ${r + 1} ${keyOf(run)}: up ${(f.up.at(-1)! / 1000).toFixed(2)} s, RSS per node ${n.map((s) => s.rss.toFixed(0)).join(', ')} MiB, panel ${f.panel.at(-1)!.toFixed(0)} MiB`,
      );
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

const fmt = (xs: number[], unit: string, d = 0) =>
  `${median(xs).toFixed(d)} ${unit} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
console.log(
  `\n${validators} validators, ${rounds} rounds, ${idleMs / 1000} s idle; medians (min–max) over every node of every round`,
);
console.log(
  '| build and runtime | devnet up | RSS per node | of it anon | of it file | PSS per node | V8 heap committed | heap used | external | panel RSS |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [build, f] of results) {
  const col = (k: keyof Sample) =>
    fmt(
      f.nodes.map((s) => s[k]),
      'MiB',
    );
  console.log(
    `| ${build} | ${fmt(
      f.up.map((ms) => ms / 1000),
      's',
      2,
    )} | ${col('rss')} | ${col('anon')} | ${col('file')} | ${col('pss')} | ${col('heapTotal')} | ${col('heapUsed')} | ${col('external')} | ${fmt(f.panel, 'MiB')} |`,
  );
}

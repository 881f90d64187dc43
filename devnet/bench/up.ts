/**
 * Benchmark: wall time of `devnet up` (4 validators, default 1 s blocks) until every node has a
 * final block, on each runtime and for each build (`--builds`, builds.ts: main's checkout beside
 * this one), measured side by side in one run: R rounds, alternating the builds and runtimes,
 * median and spread reported. On processes and threads also the CPU the nodes and the panel had
 * used when `up` returned (from /proc; on threads the host's, shared among the nodes): on a shared
 * machine a steadier figure than the wall time. The docker runtime's image is built once before timing
 * ("docker with the image already built"). Monitoring is off so that Prometheus start-up (and a
 * Grafana image pull) is not counted; the nodes are what is timed.
 *
 * With swarm among the runtimes, a test swarm of this machine's engine and --swarm-workers engines
 * in containers is made first (harness/swarm.ts) and the node image is loaded into every worker
 * before timing (image present: held there by a folder of the bench's own, so the last devnet's
 * `down` does not remove it, swarm/imageHolders.ts), then the swarm is taken apart.
 *
 *   npm run build && node devnet/dist/bench/up.js [--rounds 5] [--validators 4] [--block-time 1s]
 *     [--runtimes process,threads,docker,swarm] [--builds ../main,.]
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import { Layout } from '../src/base/layout.js';
import { freeDevnetBase } from '../src/harness/ports.js';
import { startTestSwarm, type TestSwarm } from '../src/harness/swarm.js';
import { ensureNodeImage } from '../src/runtime/docker/nodeImage.js';
import { SwarmMachines } from '../src/runtime/swarm/swarmEngines.js';
import { provideNodeImage } from '../src/runtime/swarm/swarmImages.js';
import { buildLabel, buildsOf, cleanUpOnStop, devnetCpu, devnetOf } from './builds.js';

const { values } = parseBenchArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    validators: { type: 'string', default: '4' },
    'block-time': { type: 'string', default: '1s' },
    builds: { type: 'string', default: '.' },
    runtimes: { type: 'string', default: 'process,docker' },
    'swarm-workers': { type: 'string', default: '2' },
  },
});
const rounds = Number(values.rounds);
const validators = Number(values.validators);
const runtimes = values.runtimes.split(',');
const builds = buildsOf(values.builds);
/** One column of the table: a build on a runtime. */
const runs = builds.flatMap((build) => runtimes.map((runtime) => ({ build, runtime })));
const keyOf = (r: { build: string; runtime: string }) => `${buildLabel(r.build)} ${r.runtime}`;

const dir = await mkdtemp(join(tmpdir(), 'devnet-bench-up-'));
const times = new Map<string, number[]>(runs.map((r) => [keyOf(r), []]));
/** CPU seconds when `up` returned (process runtime): per node, and the panel. */
const nodeCpu = new Map<string, number[]>(runs.map((r) => [keyOf(r), []]));
const panelCpu = new Map<string, number[]>(runs.map((r) => [keyOf(r), []]));
const failures = new Map<string, number>();
let swarm: TestSwarm | null = null;
/** The devnet being measured (its build and home), taken down if the bench is stopped. */
let measured: { build: string; home: string } | null = null;
cleanUpOnStop(async () => {
  if (measured !== null)
    await devnetOf(measured.build, ['down', '--home', measured.home], undefined, true).catch(() => undefined);
  swarm?.teardown();
  await rm(dir, { recursive: true, force: true });
});
try {
  if (runtimes.includes('swarm')) {
    const made = await startTestSwarm({ workers: Number(values['swarm-workers']), log: console.log });
    if (!made.ok) throw new Error(`no swarm for the benchmark: ${made.reason}`);
    swarm = made.swarm;
    // The image on every machine before timing, held by a folder outside any devnet (no `down` removes it).
    await mkdir(join(dir, 'image'));
    await provideNodeImage(
      new Layout(join(dir, 'image')),
      await SwarmMachines.load({}),
      null,
      console.log,
      await ensureNodeImage(console.log),
    );
  }
  if (runtimes.includes('docker') || runtimes.includes('swarm')) {
    // Build each build's image once, outside the timing.
    for (const build of builds) {
      const home = join(dir, `warm-${builds.indexOf(build)}`);
      await devnetOf(build, [
        'up',
        '--home',
        home,
        '--runtime',
        'docker',
        '--validators',
        '1',
        '--no-monitoring',
        '--base-port',
        String(await freeDevnetBase(1)),
      ]);
      await devnetOf(build, ['down', '--home', home]);
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (const run of runs) {
      const key = keyOf(run);
      const home = join(dir, `${r}-${runs.indexOf(run)}`);
      const base = await freeDevnetBase(validators);
      measured = { build: run.build, home };
      const started = performance.now();
      // A devnet that did not come up within up's own bound is counted as failed, not the end of the run.
      const failed = await devnetOf(run.build, [
        'up',
        '--home',
        home,
        '--runtime',
        run.runtime,
        '--validators',
        String(validators),
        '--block-time',
        values['block-time'],
        '--no-monitoring',
        '--base-port',
        String(base),
      ]).then(
        () => null,
        (e: Error) => e.message.split('\n').find((l) => l.startsWith('devnet:')) ?? e.message.slice(0, 300),
      );
      const ms = performance.now() - started;
      if (failed !== null) {
        failures.set(key, (failures.get(key) ?? 0) + 1);
        console.log(`round ${r + 1} ${key}: failed after ${(ms / 1000).toFixed(1)} s: ${failed}`);
        continue;
      }
      times.get(key)!.push(ms);
      const cpu = await devnetCpu(home);
      nodeCpu.get(key)!.push(...cpu.nodes);
      if (cpu.panel !== null) panelCpu.get(key)!.push(cpu.panel);
      console.log(
        `round ${r + 1} ${key}: ${(ms / 1000).toFixed(2)} s` +
          (cpu.nodes.length > 0
            ? `, nodes' CPU ${cpu.nodes.reduce((a, b) => a + b, 0).toFixed(2)} s, panel's ${cpu.panel?.toFixed(2) ?? '-'} s`
            : '') +
          `, load ${loadavg()[0]!.toFixed(1)}`,
      );
      await devnetOf(run.build, ['down', '--home', home]);
      measured = null;
    }
  }
} finally {
  swarm?.teardown();
  await rm(dir, { recursive: true, force: true });
}
const range = (xs: number[], d: number) =>
  xs.length === 0
    ? '-'
    : `${median(xs).toFixed(d)} s (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
console.log(
  `\n${validators} validators, ${values['block-time']} blocks, ${rounds} rounds; medians (min–max); CPU when up returned (process and threads runtimes)`,
);
console.log(
  '| build | runtime | devnet up until every node is final | CPU per node | CPU of all nodes | panel CPU | up, of the first build | failed rounds |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const run of runs) {
  const key = keyOf(run);
  const t = times.get(key)!.map((ms) => ms / 1000);
  const first = times.get(keyOf({ build: builds[0]!, runtime: run.runtime }))!;
  const cpu = nodeCpu.get(key)!;
  const perRound = [];
  for (let i = 0; i < cpu.length; i += validators)
    perRound.push(cpu.slice(i, i + validators).reduce((a, b) => a + b, 0));
  console.log(
    `| ${buildLabel(run.build)} | ${run.runtime} | ${range(t, 2)} | ${range(cpu, 2)} | ${range(perRound, 1)} | ${range(panelCpu.get(key)!, 2)} | ${(median(t) / (median(first) / 1000)).toFixed(2)} | ${failures.get(key) ?? 0} |`,
  );
}

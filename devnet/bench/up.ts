/**
 * Benchmark: wall time of `devnet up` (4 validators, default 1 s blocks) until every node has a
 * final block, on each runtime, measured side by side in one run: R rounds, alternating the
 * runtimes, median and spread reported. The docker runtime's image is built once before timing
 * ("docker with the image already built"). Monitoring is off so that Prometheus start-up (and a
 * Grafana image pull) is not counted; the nodes are what is timed.
 *
 * With swarm among the runtimes, a test swarm of this machine's engine and --swarm-workers engines
 * in containers is made first (harness/swarm.ts) and the node image is loaded into every worker
 * before timing (image present; `down` removes only the images a devnet loaded itself), then the
 * swarm is taken apart.
 *
 *   npm run build && node devnet/dist/bench/up.js [--rounds 5] [--validators 4] [--runtimes process,docker,swarm]
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@chain-devnet/node/util';
import { devnetCli, devnetJson } from '../src/harness/cli.js';
import { freeDevnetBase } from '../src/harness/ports.js';
import { startTestSwarm, type TestSwarm } from '../src/harness/swarm.js';
import type { UpJson } from '../src/jsonShapes.js';
import { Layout } from '../src/layout.js';
import { ensureNodeImage } from '../src/runtime/docker/nodeImage.js';
import { SwarmMachines } from '../src/runtime/swarm/swarmEngines.js';
import { provideNodeImage } from '../src/runtime/swarm/swarmImages.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    validators: { type: 'string', default: '4' },
    runtimes: { type: 'string', default: 'process,docker' },
    'swarm-workers': { type: 'string', default: '2' },
  },
});
const rounds = Number(values.rounds);
const validators = Number(values.validators);
const runtimes = values.runtimes.split(',');

async function cli(args: string[]): Promise<void> {
  const r = await devnetCli(args, { timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`devnet ${args.join(' ')}: ${r.stderr}`);
}

const dir = await mkdtemp(join(tmpdir(), 'devnet-bench-up-'));
const times: Record<string, number[]> = Object.fromEntries(runtimes.map((r) => [r, []]));
let swarm: TestSwarm | null = null;
try {
  if (runtimes.includes('swarm')) {
    const made = await startTestSwarm({ workers: Number(values['swarm-workers']), log: console.log });
    if (!made.ok) throw new Error(`no swarm for the benchmark: ${made.reason}`);
    swarm = made.swarm;
    // The image on every machine before timing, loaded outside any devnet (so no `down` removes it).
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
    // Build the image once, outside the timing.
    const home = join(dir, 'warm');
    await cli([
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
    await cli(['down', '--home', home]);
  }
  for (let r = 0; r < rounds; r++) {
    for (const runtime of runtimes) {
      const home = join(dir, `${runtime}-${r}`);
      const base = await freeDevnetBase(validators);
      const started = performance.now();
      await devnetJson<UpJson>([
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
      const ms = performance.now() - started;
      times[runtime]!.push(ms);
      console.log(`round ${r + 1} ${runtime}: ${(ms / 1000).toFixed(2)} s`);
      await cli(['down', '--home', home]);
    }
  }
} finally {
  swarm?.teardown();
  await rm(dir, { recursive: true, force: true });
}
console.log(`\n| runtime | validators | devnet up until every node is final: median | min | max | rounds |`);
console.log('|---|---|---|---|---|---|');
for (const runtime of runtimes) {
  const t = times[runtime]!;
  console.log(
    `| ${runtime} | ${validators} | ${(median(t) / 1000).toFixed(2)} s | ${(Math.min(...t) / 1000).toFixed(2)} s | ${(Math.max(...t) / 1000).toFixed(2)} s | ${t.length} |`,
  );
}

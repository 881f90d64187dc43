/**
 * Benchmark: `devnet save` and `devnet up --from` of a 4-validator devnet of `--blocks` blocks.
 * One devnet on processes (monitoring off, no panel) runs to `--blocks`; then, through the
 * `devnet` command as a user runs it, `--runs` times each: `save` while it runs (its nodes
 * stopped at once, copied, started again: the command's wall time); and on each of `--runtimes`:
 * `up --from` that archive (until every node has answered at its saved height), `save` of the
 * restored devnet while it runs, `down`. Medians, the archive's size, and the time to read and
 * check it (archive/read.ts, as `up --from` does first) are printed. With `swarm` among the
 * runtimes, a test swarm of this machine's engine and two engines in containers is made for it
 * and taken apart after (harness/swarm.ts). Results go to docs/BENCHMARKS.md, "devnet save and
 * up --from".
 *
 *   npm run bench:archive -- [--blocks 3000] [--block-time 100ms] [--runs 3] [--runtimes process,docker,swarm]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { readArchive } from '../src/archive/read.js';
import { devnetCli, devnetJson } from '../src/harness/cli.js';
import { freeDevnetBase } from '../src/harness/ports.js';
import { startTestSwarm, type TestSwarm } from '../src/harness/swarm.js';
import type { SaveJson, UpJson } from '../src/json/jsonShapes.js';

const { values } = parseBenchArgs({
  options: {
    blocks: { type: 'string', default: '3000' },
    'block-time': { type: 'string', default: '100ms' },
    runs: { type: 'string', default: '3' },
    runtimes: { type: 'string', default: 'process,docker' },
  },
});
const blocks = Number(values.blocks);
const runs = Number(values.runs);
const runtimes = values.runtimes.split(',');

const dir = await mkdtemp(join(tmpdir(), 'devnet-bench-archive-'));
const homes: string[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: [string, number[]][] = [];

async function timed<T>(what: string, run: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const r = await run();
  const ms = performance.now() - t;
  const row = results.find(([w]) => w === what);
  if (row === undefined) results.push([what, [ms]]);
  else row[1].push(ms);
  console.log(`${what}: ${seconds(ms)}`);
  return r;
}

async function upFrom(file: string, runtime: string, run: number): Promise<string> {
  const home = join(dir, `restored-${runtime}-${run}`);
  homes.push(home);
  const base = String(await freeDevnetBase(4, false));
  const args = ['up', '--from', file, '--runtime', runtime, '--base-port', base, '--no-ui', '--home', home];
  await timed(`up --from on ${runtime}`, () => devnetJson<UpJson>(args));
  return home;
}

let swarm: TestSwarm | null = null;
try {
  if (runtimes.includes('swarm')) {
    const made = await startTestSwarm({ workers: 2, log: (l) => console.log(`# ${l}`) });
    if (!made.ok) throw new Error(`no test swarm: ${made.reason}`);
    swarm = made.swarm;
  }
  const home = join(dir, 'first');
  homes.push(home);
  const base = await freeDevnetBase(4, false);
  const up = await devnetJson<UpJson>([
    ...['up', '--runtime', 'process', '--validators', '4', '--block-time', values['block-time']],
    ...['--no-monitoring', '--no-ui', '--base-port', String(base), '--home', home],
  ]);
  const first = new RpcClient(up.nodes[0]!.rpc, 5_000);
  console.log(`running to height ${blocks} at ${values['block-time']} blocks…`);
  await waitFor(`height ${blocks}`, blocks * 2_000, async () => (await first.status()).height >= blocks, {
    pollMs: 2_000,
  });
  const file = join(dir, 'devnet.tar.gz');
  let saved: SaveJson | null = null;
  for (let i = 0; i < runs; i++)
    saved = await timed('save on process (running, 4 validators)', () =>
      devnetJson<SaveJson>(['save', file, '--home', home]),
    );
  await devnetCli(['down', '--home', home]);
  const size = (await stat(file)).size;
  for (let i = 0; i < runs; i++)
    await timed('read and check the archive (streamed)', () => readArchive(file));
  for (const runtime of runtimes)
    for (let i = 0; i < runs; i++) {
      const again = await upFrom(file, runtime, i);
      await timed(`save on ${runtime} (restored, running)`, () =>
        devnetJson<SaveJson>(['save', join(dir, `${runtime}.tar.gz`), '--home', again]),
      );
      await devnetCli(['down', '--home', again]);
    }
  console.log(
    `\narchive: ${(size / 1e6).toFixed(2)} MB, ${saved!.files} files, heights ${JSON.stringify(saved!.heights)}`,
  );
  console.log(`medians of ${runs} runs:`);
  for (const [what, ms] of results)
    console.log(`| ${what} | ${seconds(median(ms))} | ${ms.map(seconds).join(', ')} |`);
} finally {
  for (const h of homes) await devnetCli(['down', '--home', h]);
  await rm(dir, { recursive: true, force: true });
  swarm?.teardown();
}

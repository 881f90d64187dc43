/**
 * Benchmark: `devnet save` and `devnet up --from` of a 4-validator devnet of a few thousand
 * blocks. One devnet on processes (monitoring off, no panel) runs to `--blocks`; then, through the
 * `devnet` command as a user runs it: `save` while it runs (its nodes stopped at once, copied,
 * started again: the command's wall time), `down`, and `up --from` on each of `--runtimes` until
 * every node has answered at its saved height (the command's wall time), `save` of that one too.
 * The archive's size is printed. Results go to docs/BENCHMARKS.md, "devnet save and up --from".
 *
 *   npm run build && node devnet/dist/bench/archive.js [--blocks 3000] [--block-time 100ms] [--runtimes process,docker]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RpcClient } from '@chain-devnet/node/client';
import { waitFor } from '@chain-devnet/node/harness';
import { devnetCli, devnetJson } from '../src/harness/cli.js';
import { freeDevnetBase } from '../src/harness/ports.js';
import type { SaveJson, UpJson } from '../src/jsonShapes.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '3000' },
    'block-time': { type: 'string', default: '100ms' },
    runtimes: { type: 'string', default: 'process,docker' },
  },
});
const blocks = Number(values.blocks);

const dir = await mkdtemp(join(tmpdir(), 'devnet-bench-archive-'));
const homes: string[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(what: string, run: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const r = await run();
  console.log(`${what}: ${seconds(performance.now() - t)}`);
  return r;
}

async function upFrom(file: string, runtime: string): Promise<string> {
  const home = join(dir, `restored-${runtime}`);
  homes.push(home);
  const base = String(await freeDevnetBase(4, false));
  await timed(`up --from on ${runtime}`, () =>
    devnetJson<UpJson>([
      'up',
      '--from',
      file,
      '--runtime',
      runtime,
      '--base-port',
      base,
      '--no-ui',
      '--home',
      home,
    ]),
  );
  return home;
}

try {
  const home = join(dir, 'first');
  homes.push(home);
  const base = await freeDevnetBase(4, false);
  const up = await devnetJson<UpJson>([
    'up',
    '--runtime',
    'process',
    '--validators',
    '4',
    '--block-time',
    values['block-time'],
    '--no-monitoring',
    '--no-ui',
    '--base-port',
    String(base),
    '--home',
    home,
  ]);
  const first = new RpcClient(up.nodes[0]!.rpc, 5_000);
  console.log(`running to height ${blocks} at ${values['block-time']} blocks…`);
  await waitFor(`height ${blocks}`, blocks * 2_000, async () => (await first.status()).height >= blocks, {
    pollMs: 2_000,
  });
  const file = join(dir, 'devnet.tar.gz');
  const saved = await timed('save (running, 4 validators)', () =>
    devnetJson<SaveJson>(['save', file, '--home', home]),
  );
  console.log(
    `archive: ${((await stat(file)).size / 1e6).toFixed(2)} MB, ${saved.files} files, heights ${JSON.stringify(saved.heights)}`,
  );
  await devnetCli(['down', '--home', home]);
  for (const runtime of values.runtimes.split(',')) {
    const again = await upFrom(file, runtime);
    await timed(`save on ${runtime}`, () =>
      devnetJson<SaveJson>(['save', join(dir, `${runtime}.tar.gz`), '--home', again]),
    );
    await devnetCli(['down', '--home', again]);
  }
} finally {
  for (const h of homes) await devnetCli(['down', '--home', h]);
  await rm(dir, { recursive: true, force: true });
}

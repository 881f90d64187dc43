/**
 * The CI's seed run (issue 43): 200 seeds of the seed search, each a fault schedule drawn from the
 * seed on 4 validators and judged, and 100 of every kind of fault (`--faults all`) (no fork; liveness once the network is whole), run by two
 * processes at once to the same fingerprint for every seed: the determinism check. The seeds are
 * named after the commit (ci-<commit>-0 …), so every commit searches new schedules and a failure
 * replays on its commit. A failing seed's shrunk scenario file is kept in artifacts/sim/ (CI keeps
 * artifacts/), and the failure says how to replay it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runProgram } from '@chain-devnet/kit/process';
import { repoRoot } from '../../../src/base/repo.js';
import { devnetCli } from '../../../src/harness/cli.js';

const SEEDS = 200;
/** Seeds of `--faults all` besides: they dilute the lock-taking faults, but draw what those never do. */
const EVERY_KIND_SEEDS = 100;

interface SeedJson {
  readonly seed: string;
  readonly ok: boolean;
  readonly fingerprint: string;
  readonly failures?: readonly string[];
  readonly shrunk?: { readonly file: string; readonly replays: boolean };
}

async function commitSeed(): Promise<string> {
  const r = await runProgram({
    args: ['git', 'rev-parse', '--short=12', 'HEAD'],
    name: 'git',
    cwd: repoRoot(),
  }).catch(() => null);
  return r?.code === 0 ? `ci-${r.stdout.trim()}` : 'ci';
}

/** `seeds` seeds of the search (with `extra` flags), run by two processes at once: every seed passes, and to one fingerprint. */
async function seedRun(seeds: number, seed: string, extra: readonly string[]): Promise<void> {
  const out = join(repoRoot(), 'artifacts', 'sim');
  const args = [
    'test',
    '--runtime',
    'sim',
    '--seeds',
    String(seeds),
    '--seed',
    seed,
    '--out',
    out,
    '--json',
    ...extra,
  ];
  const runs = await Promise.all([0, 1].map(() => devnetCli(args, { timeoutMs: 840_000 })));
  const reports = runs.map((r) => {
    assert.ok(r.code === 0 || r.code === 1, r.stdout + r.stderr);
    return JSON.parse(r.stdout) as SeedJson[];
  });
  const [first, second] = reports as [SeedJson[], SeedJson[]];
  assert.equal(first.length, seeds);
  const failed = first.filter((s) => !s.ok);
  assert.deepEqual(
    failed.map(
      (s) =>
        `${s.seed}: ${s.failures?.join('; ')}; shrunk to ${s.shrunk?.file} (replays: ${s.shrunk?.replays}): devnet test ${s.shrunk?.file} --runtime sim --seed ${s.seed}`,
    ),
    [],
  );
  const differ = first.filter((s, i) => second[i]?.fingerprint !== s.fingerprint).map((s) => s.seed);
  assert.deepEqual(differ, [], 'seeds whose two runs made other chains: the simulation is not deterministic');
}

describe('the seed run', () => {
  test(`${SEEDS} seeds of drawn fault schedules pass, and two runs give every seed one fingerprint`, {
    timeout: 900_000,
  }, async () => {
    await seedRun(SEEDS, await commitSeed(), []);
  });

  test(`${EVERY_KIND_SEEDS} seeds of every kind of fault (clocks, links, disks too) pass, each to one fingerprint`, {
    timeout: 900_000,
  }, async () => {
    await seedRun(EVERY_KIND_SEEDS, `${await commitSeed()}-all`, ['--faults', 'all']);
  });
});

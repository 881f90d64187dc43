/**
 * A swarm test run that is killed mid-way, and what it leaves: killedRunChild.js makes a test
 * swarm (this machine's engine and one engine in a container), brings a devnet of 2 validators up
 * on it and is SIGKILLed, so that none of its clean-up runs. killedRun.test.ts runs it before
 * making a swarm of its own (whose start must take all of it apart) and checks at its end that
 * this machine's engine is as it was before either run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProgram, startProgram } from '@chain-devnet/kit/process';
import { Layout } from '../../../src/base/layout.js';
import { TEST_SWARM_LABEL, takeApartEarlierRun } from '../../../src/harness/swarm.js';

const CHILD = fileURLToPath(new URL('./killedRunChild.js', import.meta.url));

async function dockerLines(args: readonly string[]): Promise<string[]> {
  const r = await runProgram({ command: 'docker', args });
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** This machine's engine, as far as a test swarm and the devnet `id` touch it. */
export async function engineState(id: string) {
  const label = `label=io.chain-devnet.devnet=${id}`;
  return {
    swarm: (await dockerLines(['info', '--format', '{{.Swarm.LocalNodeState}}'])).join(''),
    // Those of a swarm and of this devnet (other tests' devnets come and go meanwhile).
    networks: (await dockerLines(['network', 'ls', '--format', '{{.Name}}'])).filter(
      (n) => n === 'docker_gwbridge' || n === 'ingress' || n.startsWith(`devnet-${id}`),
    ),
    engines: await dockerLines(['ps', '-aq', '--filter', `label=${TEST_SWARM_LABEL}=engine`]),
    containers: await dockerLines(['ps', '-a', '--filter', label, '--format', '{{.Names}}']),
    volumes: await dockerLines(['volume', 'ls', '-q', '--filter', label]),
  };
}
export type EngineState = Awaited<ReturnType<typeof engineState>>;

export type KilledRun =
  | { readonly ok: true; readonly id: string; readonly before: EngineState; readonly left: EngineState }
  | { readonly ok: false; readonly reason: string };

/** Runs killedRunChild.js until its devnet is up, SIGKILLs it: this engine before, and what it left. */
export async function killARun(): Promise<KilledRun> {
  const dir = await mkdtemp(join(tmpdir(), 'swarm-killed-'));
  const home = join(dir, 'home');
  const id = new Layout(home).id;
  // This engine as found is without what a run killed before this one left (a session's own
  // check killed at its end left a whole test swarm, which the next start then took apart).
  takeApartEarlierRun((l) => console.log(`# ${l}`));
  const before = await engineState(id);
  const child = startProgram({ args: [CHILD, home], name: 'killed run' });
  try {
    const m = await child.waitForLine(/^(READY|NOT MADE .*)$/, 420_000, 'READY');
    if (m[1] !== 'READY') return { ok: false, reason: m[1]!.slice('NOT MADE '.length) };
    child.signal('SIGKILL');
    await child.exited;
    return { ok: true, id, before, left: await engineState(id) };
  } finally {
    await child.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

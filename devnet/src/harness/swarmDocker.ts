/**
 * The docker CLI as the test swarm (swarm.ts, sharedSwarm.ts) drives it: async, and synchronous
 * for what also runs in signal and exit handlers; this machine's swarm state; and the removal of
 * the services on a test swarm with what their tasks left on this machine.
 */
import { type RunResult, runProgram, runProgramSyncResult } from '@chain-devnet/kit/process';

/** Marks the test swarm's worker containers, and (on the manager's swarm node) a swarm it made. */
export const TEST_SWARM_LABEL = 'io.chain-devnet.test-swarm';
/** The devnets' own label (runtime/docker/labels.ts), by which their leftovers are found. */
const DEVNET_LABEL = 'io.chain-devnet.devnet';

export async function docker(args: readonly string[], timeoutMs = 120_000): Promise<RunResult> {
  return runProgram({ command: 'docker', args, name: `docker ${args[0]}`, timeoutMs });
}

export async function dockerOk(args: readonly string[], timeoutMs?: number): Promise<string> {
  const r = await docker(args, timeoutMs);
  if (r.code !== 0) throw new Error(`docker ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

export function dockerSync(args: readonly string[], timeoutMs = 60_000): RunResult {
  return runProgramSyncResult({ command: 'docker', args, timeoutMs });
}

export const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** This engine's swarm state, and whether a swarm it is in is marked as made by the test harness. */
export function hostSwarm(): { state: string; marked: boolean } {
  const state = dockerSync(['info', '--format', '{{.Swarm.LocalNodeState}}']).stdout.trim();
  if (state !== 'active') return { state, marked: false };
  const label = dockerSync([
    'node',
    'inspect',
    'self',
    '--format',
    `{{index .Spec.Labels "${TEST_SWARM_LABEL}"}}`,
  ]);
  return { state, marked: label.stdout.trim() === 'true' };
}

/**
 * Removes every service on the test swarm (all the tests') and what their tasks left on this
 * machine (containers, volumes, by the devnets' ids).
 */
export function removeServices(log: (line: string) => void): void {
  const services = lines(dockerSync(['service', 'ls', '-q']).stdout);
  // The devnets whose tasks may have left containers and volumes on this machine, by the services'
  // own labels (`service ls --format` has no labels: asked there, it answered nothing).
  const ids = new Set(
    services.length === 0
      ? []
      : lines(
          dockerSync([
            'service',
            'inspect',
            '--format',
            `{{index .Spec.Labels "${DEVNET_LABEL}"}}`,
            ...services,
          ]).stdout,
        ),
  );
  if (services.length > 0) {
    log(`test swarm: removing ${services.length} service(s) left on it`);
    dockerSync(['service', 'rm', ...services]);
  }
  for (const id of ids) {
    const filter = `label=${DEVNET_LABEL}=${id}`;
    for (let i = 0; i < 60 && lines(dockerSync(['ps', '-aq', '--filter', filter]).stdout).length > 0; i++)
      sleepSync(500);
    const containers = lines(dockerSync(['ps', '-aq', '--filter', filter]).stdout);
    if (containers.length > 0) dockerSync(['rm', '-f', '-v', ...containers]);
    const volumes = lines(dockerSync(['volume', 'ls', '-q', '--filter', filter]).stdout);
    if (volumes.length > 0) dockerSync(['volume', 'rm', '-f', ...volumes]);
  }
}

/**
 * One test swarm for all the swarm files of a test run: the runner (.ci/tests/runTests.mjs) makes
 * it before its first swarm file and takes it apart after the last (also when a file fails or the
 * run is stopped; a killed run's swarm is taken apart by the next start, as any). It tells its
 * files in SHARED_SWARM_ENV: JSON {"machines": [names, the manager first]}; a file then uses that
 * swarm instead of making one, and leaves it as it is at its end (its devnets' own `down` take
 * them off). Whenever no swarm file runs, the runner takes off it what files left there
 * (cleanSharedSwarm: a failed file's devnets), so that the next file finds it as it was made.
 */
import { dockerSync, hostSwarm, lines, removeServices } from './swarmDocker.js';

export const SHARED_SWARM_ENV = 'CHAIN_DEVNET_SHARED_SWARM';
const DEVNET_FILTER = 'label=io.chain-devnet.devnet';

/** The shared swarm's machines when the runner made one for this process, else null. */
export function sharedSwarmMachines(): string[] | null {
  const value = process.env[SHARED_SWARM_ENV];
  if (value === undefined || value === '') return null;
  const machines = (JSON.parse(value) as { machines?: unknown }).machines;
  if (!Array.isArray(machines) || machines.some((m) => typeof m !== 'string'))
    throw new Error(`${SHARED_SWARM_ENV}: expected {"machines": [names]}, got ${value}`);
  return machines as string[];
}

/**
 * The runner's swarm as this file may use it: the machines the runner named, all ready, this
 * machine's engine their manager (a swarm marked as the tests'); else why not.
 */
export function sharedSwarm(
  machines: readonly string[],
  workers: number,
): { ok: true } | { ok: false; reason: string } {
  const { state, marked } = hostSwarm();
  if (state !== 'active' || !marked)
    return { ok: false, reason: `the runner's shared test swarm is not there (swarm state ${state})` };
  if (machines.length !== workers + 1)
    return {
      ok: false,
      reason: `the runner's shared test swarm has ${machines.length - 1} workers, not ${workers}`,
    };
  const nodes = lines(dockerSync(['node', 'ls', '--format', '{{.Hostname}} {{.Status}}']).stdout);
  const ready = nodes.filter((n) => n.endsWith(' Ready')).map((n) => n.split(' ')[0]!);
  if (nodes.length !== machines.length || machines.some((m) => !ready.includes(m)))
    return { ok: false, reason: `the shared test swarm's machines are not all ready: ${nodes.join(', ')}` };
  return { ok: true };
}

/** Takes off the shared swarm what a file's devnets left on it (see above); the swarm stays. */
export function cleanSharedSwarm(log: (line: string) => void): void {
  removeServices(log);
  for (const kind of ['config', 'secret'] as const) {
    const left = lines(dockerSync([kind, 'ls', '-q', '--filter', DEVNET_FILTER]).stdout);
    if (left.length > 0) dockerSync([kind, 'rm', ...left]);
  }
  // Only the swarm's own (overlay) networks: this machine's engine has other devnets' too.
  const networks = lines(
    dockerSync(['network', 'ls', '-q', '--filter', DEVNET_FILTER, '--filter', 'driver=overlay']).stdout,
  );
  if (networks.length > 0) dockerSync(['network', 'rm', ...networks]);
  // The workers are the tests' own engines: nothing of any devnet, and no image of the tool's.
  const engines = lines(dockerSync(['node', 'ls', '-q', '--filter', 'role=worker']).stdout).flatMap((id) =>
    lines(
      dockerSync(['node', 'inspect', id, '--format', '{{index .Spec.Labels "io.chain-devnet.engine"}}'])
        .stdout,
    ),
  );
  for (const engine of engines) {
    const on = (args: readonly string[]) => lines(dockerSync(['-H', engine, ...args]).stdout);
    const containers = on(['ps', '-aq', '--filter', DEVNET_FILTER]);
    if (containers.length > 0) dockerSync(['-H', engine, 'rm', '-f', '-v', ...containers]);
    const volumes = on(['volume', 'ls', '-q', '--filter', DEVNET_FILTER]);
    if (volumes.length > 0) dockerSync(['-H', engine, 'volume', 'rm', '-f', ...volumes]);
    const images = on(['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}']).filter((i) =>
      i.startsWith('chain-devnet/'),
    );
    if (images.length > 0) {
      log(`test swarm: removing ${images.length} image tag(s) of the tool left on ${engine}`);
      dockerSync(['-H', engine, 'image', 'rm', '-f', ...images]);
    }
  }
}

/**
 * A Docker Swarm of several engines on this one machine, for tests of the swarm runtime: this
 * machine's engine initialises a swarm and manages it, and each worker is a Docker engine in a
 * container (as docs measured in ENVIRONMENT.md: this machine's own binaries mounted read-only
 * into an image made locally, vfs storage, every capability but SYS_RESOURCE, the cgroup
 * hierarchy mounted), joined as a worker over the default bridge and labelled with its engine's
 * address (io.chain-devnet.engine=tcp://IP:2375), which is how the runtime reaches it.
 *
 * It never touches a swarm it did not make: when this machine's engine is already in a swarm
 * that is not marked as this helper's, it gives a reason not to run instead. It takes everything
 * apart again (teardown: the services on the swarm and what their tasks left on this machine, the
 * workers, the swarm, docker_gwbridge unless it was there before), also on SIGINT, SIGTERM and
 * exit, and first thing at the next start for what a killed run left (found by its labels), so
 * that this machine's engine is left as it was found: in no swarm, nothing of the test left.
 * Under the test runner, the swarm files share the one swarm it made (sharedSwarm.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { cleanSharedSwarm, SHARED_SWARM_ENV, sharedSwarm, sharedSwarmMachines } from './sharedSwarm.js';
import {
  docker,
  dockerOk,
  dockerSync,
  hostSwarm,
  lines,
  removeServices,
  sleepSync,
  TEST_SWARM_LABEL,
} from './swarmDocker.js';

export { cleanSharedSwarm, SHARED_SWARM_ENV, TEST_SWARM_LABEL };

const ENGINE_IMAGE = 'chain-devnet/swarm-engine:host';
const ENGINE_PORT = 2375;

export interface TestSwarmOptions {
  /** Engines in containers besides this machine's (at least 1). */
  readonly workers: number;
  readonly log?: (line: string) => void;
  /**
   * Take the swarm apart on SIGINT and SIGTERM (default true); false for a caller that handles
   * them itself (the test runner, which first lets its files end). On exit it always is.
   */
  readonly onSignals?: boolean;
  /**
   * Use the swarm the test runner made for its swarm files (SHARED_SWARM_ENV, sharedSwarm.ts) when
   * it says there is one (default true); false: always make one (a test of a killed run's swarm).
   */
  readonly shared?: boolean;
}

export interface TestSwarm {
  /** Every machine's swarm name, the manager (this machine) first. */
  readonly machines: readonly string[];
  /** Seconds it took to make (0: the runner's shared swarm, made before the file). */
  readonly setupSeconds: number;
  /**
   * Takes everything apart (idempotent, synchronous: it also runs in signal and exit handlers).
   * On the runner's shared swarm nothing: the runner cleans it between files and takes it apart.
   */
  teardown(): void;
}

export type TestSwarmResult =
  | { readonly ok: true; readonly swarm: TestSwarm }
  | { readonly ok: false; readonly reason: string };

/** The ingress network of a swarm this engine is in or was in (listed until the engine removes it). */
function ingressLeft(): boolean {
  return lines(dockerSync(['network', 'ls', '--format', '{{.Name}} {{.Scope}}']).stdout).includes(
    'ingress swarm',
  );
}

/**
 * Leaves the swarm once its ingress network is in place (leaving while the engine still sets it
 * up is when it was seen to stay), and waits for the network to go (bounded).
 */
function leaveSwarm(): void {
  for (
    let i = 0;
    i < 40 && !dockerSync(['network', 'inspect', 'ingress']).stdout.includes('ingress-sbox');
    i++
  )
    sleepSync(500);
  dockerSync(['swarm', 'leave', '--force']);
  for (let i = 0; i < 30 && ingressLeft(); i++) sleepSync(500);
}

/**
 * Takes apart a swarm this helper made (`made`: this run initialised it; else only one marked as
 * an earlier run's), or what of one a killed run left: the services on it (all the tests'), what
 * their tasks left on this machine (containers, volumes, by the devnets' ids), the workers, the
 * swarm itself, and docker_gwbridge unless `keepGwbridge`.
 */
function takeApart(made: boolean, keepGwbridge: boolean, log: (line: string) => void): void {
  const { state, marked } = hostSwarm();
  const ours = state === 'active' && (made || marked);
  if (ours) removeServices(log);
  const workers = lines(dockerSync(['ps', '-aq', '--filter', `label=${TEST_SWARM_LABEL}=engine`]).stdout);
  if (workers.length > 0) {
    log(`test swarm: removing ${workers.length} worker engine(s)`);
    // Their engines' state (swarm membership, images, volumes) lives in the containers' tmpfs.
    dockerSync(['rm', '-f', '-v', ...workers]);
  }
  if (ours) {
    log("test swarm: this machine's engine leaves the swarm");
    leaveSwarm();
    if (ingressLeft()) {
      // Seen here once in a few runs: the engine timed out removing the ingress network while
      // leaving ("timeout while waiting for ingress network removal"), and the network stayed,
      // holding docker_gwbridge. Joining a swarm of one and leaving it again removes both.
      log('test swarm: the engine kept the ingress network; a swarm of one is made and left to remove it');
      dockerSync(['swarm', 'init', '--advertise-addr', '127.0.0.1', '--listen-addr', '127.0.0.1:2377']);
      dockerSync(['node', 'update', '--label-add', `${TEST_SWARM_LABEL}=true`, 'self']);
      leaveSwarm();
    }
  }
  if (!keepGwbridge)
    // Its last endpoint (the ingress sandbox's) goes a moment after the swarm is left.
    for (let i = 0; i < 20 && dockerSync(['network', 'inspect', 'docker_gwbridge']).code === 0; i++) {
      if (dockerSync(['network', 'rm', 'docker_gwbridge']).code === 0) break;
      sleepSync(500);
    }
  if (ours && hostSwarm().state !== 'inactive')
    throw new Error(
      "the test swarm could not be taken apart: this machine's engine is still in it (docker swarm leave --force)",
    );
}

/** The image the worker engines run in: nothing but mount points (the binaries are this machine's). */
async function ensureEngineImage(): Promise<void> {
  if ((await docker(['image', 'inspect', ENGINE_IMAGE])).code === 0) return;
  const dir = await mkdtemp(join(tmpdir(), 'swarm-engine-'));
  try {
    // An empty root: docker run makes the mount points; /usr, /lib… come from this machine.
    const tarFile = join(dir, 'root.tar');
    const made = await runProgram({
      command: 'tar',
      args: ['-C', dir, '-cf', tarFile, '--files-from', '/dev/null'],
    });
    if (made.code !== 0) throw new Error(`tar: ${made.stderr}`);
    await dockerOk(['import', '--message', 'chain-devnet test swarm engine', tarFile, ENGINE_IMAGE]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Worker {
  readonly hostname: string;
  readonly ip: string;
  readonly engine: string;
  /** This machine's address on the default bridge, as the worker reaches it. */
  readonly gateway: string;
}

/** A Docker engine in a container, answering on its bridge address. */
async function startWorker(i: number, suffix: string): Promise<Worker> {
  const name = `chain-devnet-swarm-w${i}-${suffix}`;
  const hostname = `swarm-w${i}`;
  await dockerOk([
    'run',
    '-d',
    '--name',
    name,
    '--hostname',
    hostname,
    '--label',
    `${TEST_SWARM_LABEL}=engine`,
    // Without PATH the inner engine finds no iptables; without the cgroup mount it starts no container.
    '-e',
    'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    // --privileged fails here (CAP_SYS_RESOURCE is not in the bounding set): all caps but that one.
    '--cap-add',
    'ALL',
    '--cap-drop',
    'SYS_RESOURCE',
    '--security-opt',
    'seccomp=unconfined',
    '--security-opt',
    'apparmor=unconfined',
    '-v',
    '/sys/fs/cgroup:/sys/fs/cgroup:rw',
    ...['/usr', '/lib', '/lib64', '/bin', '/sbin', '/etc/alternatives'].flatMap((p) => [
      '-v',
      `${p}:${p}:ro`,
    ]),
    '--tmpfs',
    '/var/lib/docker:exec',
    '--tmpfs',
    '/run',
    '--tmpfs',
    '/tmp',
    ENGINE_IMAGE,
    '/usr/sbin/dockerd',
    '--storage-driver',
    'vfs',
    '--host',
    'unix:///run/docker.sock',
    '--host',
    `tcp://0.0.0.0:${ENGINE_PORT}`,
  ]);
  const [ip, gateway] = (
    await dockerOk([
      'inspect',
      '--format',
      '{{.NetworkSettings.IPAddress}} {{.NetworkSettings.Gateway}}',
      name,
    ])
  ).split(' ') as [string, string];
  const engine = `tcp://${ip}:${ENGINE_PORT}`;
  await waitFor(
    `the engine in ${name} to answer`,
    60_000,
    async () => (await docker(['-H', engine, 'info'], 5_000)).code === 0,
  );
  return { hostname, ip, engine, gateway };
}

/** The worker joins the swarm, labelled with its engine's address (how the swarm runtime reaches it). */
async function joinSwarm(w: Worker, token: string): Promise<void> {
  await dockerOk([
    '-H',
    w.engine,
    'swarm',
    'join',
    '--token',
    token,
    '--advertise-addr',
    w.ip,
    `${w.gateway}:2377`,
  ]);
  const nodeId = await dockerOk(['-H', w.engine, 'info', '--format', '{{.Swarm.NodeID}}']);
  await dockerOk(['node', 'update', '--label-add', `io.chain-devnet.engine=${w.engine}`, nodeId]);
}

/**
 * Takes apart what a killed earlier run left (its swarm only when marked as a test swarm; a
 * docker_gwbridge outside any swarm is left alone, as it may not be the tests'). A test that
 * records this machine's engine as it found it does this first, so that a run killed before it
 * does not count as how the engine was found.
 */
export function takeApartEarlierRun(log: (line: string) => void = () => undefined): void {
  const keepGwbridge = hostSwarm().state !== 'active';
  takeApart(false, keepGwbridge, (l) => log(`${l} (left by an earlier run)`));
}

/** The runner's shared swarm (sharedSwarm.ts), for a file it runs on it: the runner takes it apart. */
function onSharedSwarm(machines: readonly string[], o: TestSwarmOptions): TestSwarmResult {
  const usable = sharedSwarm(machines, o.workers);
  if (!usable.ok) return usable;
  o.log?.(`test swarm: the runner's, ${machines[0]} (manager) and ${machines.slice(1).join(', ')}`);
  return { ok: true, swarm: { machines, setupSeconds: 0, teardown: () => undefined } };
}

/** Why this machine's engine cannot hold a test swarm now, or null: it is in none, or in one of the tests'. */
function refusalOf(found: ReturnType<typeof hostSwarm>): string | null {
  if (found.state === 'active' && !found.marked)
    return "this machine's Docker engine is already in a swarm that the tests did not make; they never change or leave it";
  if (found.state !== 'inactive' && found.state !== 'active')
    return `this machine's Docker engine is in swarm state "${found.state}"`;
  return null;
}

/**
 * The swarm's teardown, run once: on exit always, on SIGINT and SIGTERM unless `onSignals` is
 * false (the signal then sent again, to end the process as it would have). `markMade` is called
 * just before swarm init: from then on a swarm this engine is in is this run's. `release` is the
 * made swarm's teardown: it runs the teardown and removes the handlers.
 */
function teardownOnce(gwbridgeBefore: boolean, log: (line: string) => void, onSignals: boolean) {
  let made = false;
  let done = false;
  const teardown = () => {
    if (done) return;
    done = true;
    takeApart(made, gwbridgeBefore, log);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    teardown();
    process.kill(process.pid, signal);
  };
  process.once('exit', teardown);
  if (onSignals) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  return {
    markMade: () => {
      made = true;
    },
    teardown,
    release: () => {
      teardown();
      process.off('exit', teardown);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * `count` worker engines started, this machine's engine the manager of a swarm marked as the
 * tests', the workers joined, every machine ready; the manager's hostname and the workers.
 */
async function makeSwarm(
  count: number,
  markMade: () => void,
): Promise<{ manager: string; workers: Worker[] }> {
  await ensureEngineImage();
  const suffix = String(process.pid);
  const workers = await Promise.all(Array.from({ length: count }, (_, i) => startWorker(i + 1, suffix)));
  // The workers reach this machine's engine at their gateway on the default bridge.
  const managerAddr = workers[0]!.gateway;
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(managerAddr))
    throw new Error(`no bridge gateway address for the swarm's manager (got ${JSON.stringify(managerAddr)})`);
  markMade();
  await dockerOk([
    'swarm',
    'init',
    '--advertise-addr',
    managerAddr,
    '--listen-addr',
    `${managerAddr}:2377`,
    // Each restart of a node leaves a finished task (and its container) behind: keep few.
    '--task-history-limit',
    '1',
  ]);
  // The mark by which a later run knows this swarm as a test swarm, should this run be killed.
  const self = await dockerOk(['info', '--format', '{{.Swarm.NodeID}}']);
  await dockerOk(['node', 'update', '--label-add', `${TEST_SWARM_LABEL}=true`, self]);
  const token = await dockerOk(['swarm', 'join-token', '-q', 'worker']);
  await Promise.all(workers.map((w) => joinSwarm(w, token)));
  const manager = await dockerOk(['node', 'inspect', 'self', '--format', '{{.Description.Hostname}}']);
  await waitFor(`${count + 1} swarm machines ready`, 60_000, async () => {
    const states = lines(await dockerOk(['node', 'ls', '--format', '{{.Status}}']));
    return states.length === count + 1 && states.every((s) => s === 'Ready');
  });
  return { manager, workers };
}

/**
 * Makes the swarm, or says why not (this machine's engine is in a swarm the tests did not make).
 * What a killed earlier run left is taken apart first. In a file the test runner runs on the swarm
 * it made for all its swarm files, that swarm instead (sharedSwarm.ts).
 */
export async function startTestSwarm(o: TestSwarmOptions): Promise<TestSwarmResult> {
  const shared = o.shared === false ? null : sharedSwarmMachines();
  if (shared !== null) return onSharedSwarm(shared, o);
  const log = o.log ?? (() => undefined);
  const started = Date.now();
  const found = hostSwarm();
  const refused = refusalOf(found);
  if (refused !== null) return { ok: false, reason: refused };
  // docker_gwbridge is made by swarm init; it is removed at the end only if this run made it.
  const gwbridgeBefore =
    found.state === 'inactive' && (await docker(['network', 'inspect', 'docker_gwbridge'])).code === 0;
  takeApartEarlierRun(log);
  const guard = teardownOnce(gwbridgeBefore, log, o.onSignals !== false);
  try {
    const { manager, workers } = await makeSwarm(o.workers, guard.markMade);
    const setupSeconds = (Date.now() - started) / 1000;
    log(
      `test swarm: ${manager} (manager) and ${workers.map((w) => w.hostname).join(', ')}, made in ${setupSeconds.toFixed(1)} s`,
    );
    return {
      ok: true,
      swarm: {
        machines: [manager, ...workers.map((w) => w.hostname)],
        setupSeconds,
        teardown: guard.release,
      },
    };
  } catch (e) {
    guard.teardown();
    throw e;
  }
}

/**
 * Waiting on a swarm service's tasks: until a new one runs (start), until none is left (stop,
 * kill), and bringing a service with no running task up again. The swarm does all of it
 * asynchronously, so every step ends on what the manager shows, bounded.
 */
import { waitFor } from '@chain-devnet/kit/wait';
import type Docker from 'dockerode';
import { DevnetError } from '../../base/errors.js';
import { orNull } from '../docker/engineErrors.js';
import type { SwarmDevnet, TaskInfo } from './swarmDevnet.js';
import { pinnedMachine } from './swarmVolumes.js';

/** A task that ended and cannot come back: these states are final. */
const ENDED = new Set(['complete', 'shutdown', 'failed', 'rejected', 'remove', 'orphaned']);
/**
 * How long a task may stay pending with the scheduler's reason (no machine fits it) before start
 * fails with that reason; well inside a caller's command timeout, stop's wait included. A task
 * whose host-mode port another service's task holds, one meant to run on, fails at once instead
 * (portHolder).
 */
const UNSCHEDULABLE_MS = 30_000;
/** How often a pending task's port holder is looked for. */
const HOLDER_POLL_MS = 1_000;
/** How long a service may show no task for the replica asked for before one is forced (and then failed). */
const NO_TASK_MS = 10_000;

/** A service spec changed so that the swarm replaces its task (as `docker service update --force`). */
export function forceNewTask(spec: Docker.ServiceSpec): void {
  if (spec.TaskTemplate !== undefined)
    spec.TaskTemplate.ForceUpdate = (spec.TaskTemplate.ForceUpdate ?? 0) + 1;
}

/**
 * Waits until a new task of the service (none of `earlier`) runs; fails with the swarm's reason
 * when it cannot: a task that ended before it ran, or one the scheduler keeps pending with a
 * reason (no machine fits it: its host-mode port taken there, …) for UNSCHEDULABLE_MS, or at once
 * when its port is held by another service's task that is meant to run on (portHolder: named in
 * the error). A pending task is never failed by the swarm itself, so without that bound a start
 * would wait the whole `timeoutMs` and the caller's own timeout would end it first, without the
 * reason.
 */
export async function waitRunning(
  sd: SwarmDevnet,
  name: string,
  earlier: ReadonlySet<string>,
  timeoutMs = 180_000,
): Promise<void> {
  let seen = 'no task yet';
  let unschedulableSince: number | null = null;
  let holderLooked = 0;
  let holder: string | null = null;
  let asked = Date.now();
  let forced = false;
  const outcome = await waitFor(
    `the task of ${sd.name(name)} to run`,
    timeoutMs,
    async () => {
      const [newest] = (await sd.tasks(name)).filter((t) => !earlier.has(t.ID));
      if (newest === undefined) {
        if (Date.now() - asked < NO_TASK_MS) return false;
        if (forced) return 'no task';
        // The swarm made no task for the replica asked for: a new one, by force.
        forced = true;
        asked = Date.now();
        const s = await sd.service(name);
        if (s !== null) await sd.update(s, (spec) => forceNewTask(spec));
        return false;
      }
      const state = newest.Status?.State ?? '?';
      seen = `${state}${newest.Status?.Err ? `: ${newest.Status.Err}` : ''}`;
      if (state === 'running') return 'running';
      // Ended before it ran (a port taken on its machine, no image there…): it will not run.
      if (ENDED.has(state)) return 'ended';
      if (state === 'pending' && newest.Status?.Err) {
        unschedulableSince ??= Date.now();
        if (Date.now() - unschedulableSince >= UNSCHEDULABLE_MS) return 'unschedulable';
        if (HOST_PORT_TAKEN.test(newest.Status.Err) && Date.now() - holderLooked >= HOLDER_POLL_MS) {
          holderLooked = Date.now();
          holder = await portHolder(sd, name);
          if (holder !== null) return 'held';
        }
      } else unschedulableSince = null;
      return false;
    },
    { pollMs: 250, seen: () => seen },
  );
  if (outcome === 'running') return;
  const how =
    outcome === 'ended'
      ? 'did not start on the swarm'
      : outcome === 'no task'
        ? `got no task from the swarm in ${(2 * NO_TASK_MS) / 1000} s, one forced`
        : outcome === 'held'
          ? `cannot be scheduled while ${holder}`
          : `stayed unscheduled ${UNSCHEDULABLE_MS / 1000} s`;
  throw new DevnetError(
    /address already in use|port is already allocated|host-mode port/.test(seen)
      ? 'PORT_TAKEN'
      : 'NODE_START',
    `${name} ${how}: ${seen} (docker service ps --no-trunc ${sd.name(name)})`,
  );
}

/** The scheduler's reason for a task whose host-mode port is taken on the machines it may run on. */
const HOST_PORT_TAKEN = /host-mode port already in use/;

/**
 * What holds the host-mode port that keeps the service's new task pending on the machine it is
 * pinned to: a task of another service there that publishes the port and is meant to run on
 * (desired state running; the swarm never frees the port by itself), as "port P on MACHINE is held
 * by SERVICE, which is meant to run on". Null when none is found (its holder on its way out, its
 * service removed, or not yet running): then the pending is waited out.
 */
async function portHolder(sd: SwarmDevnet, name: string): Promise<string | null> {
  const s = await sd.service(name);
  const node = s === null ? undefined : pinnedMachine(s);
  const ports = (s?.Spec?.EndpointSpec?.Ports ?? [])
    .filter((p) => p.PublishMode === 'host')
    .map((p) => p.PublishedPort);
  if (s === null || node === undefined || ports.length === 0) return null;
  const tasks = (await sd.d.listTasks({
    filters: { node: [node], 'desired-state': ['running'] },
  })) as TaskInfo[];
  for (const t of tasks) {
    if (t.ServiceID === s.ID) continue;
    const port = (t.Status?.PortStatus?.Ports ?? []).find(
      (p) => p.PublishMode === 'host' && ports.includes(p.PublishedPort),
    )?.PublishedPort;
    if (port === undefined) continue;
    const other = await orNull(sd.d.getService(t.ServiceID!).inspect() as Promise<Docker.Service>);
    // A task of a service already removed (a devnet just taken down) may still be listed as
    // meant to run for a moment: its port is on its way out, so the pending is waited out.
    if (other === null) continue;
    const machine = (await sd.machines()).byId(node).name;
    return `port ${port} on ${machine} is held by service ${other.Spec?.Name ?? t.ServiceID}, which is meant to run on`;
  }
  return null;
}

/**
 * Waits until no task of the service is running, on its way to, or being removed (scaled to 0,
 * a task stays listed with desired state `remove` after it ended, until the swarm deletes it).
 * A scale back to 1 before then made no task at all, and none ever came (restart condition
 * none: the swarm does not refill the slot): `devnet restart` waited for its command timeout.
 */
export async function waitDown(sd: SwarmDevnet, name: string, timeoutMs: number): Promise<void> {
  let seen = '';
  await waitFor(
    `${sd.name(name)} to have no running task`,
    timeoutMs,
    async () => {
      const live = (await sd.tasks(name)).filter(
        (t) => !ENDED.has(t.Status?.State ?? '') || t.DesiredState === 'remove',
      );
      seen = live.map((t) => `${t.Status?.State} (desired ${t.DesiredState})`).join(', ');
      return live.length === 0;
    },
    { pollMs: 200, seen: () => seen },
  );
}

/** A new task for a service that has none running (stopped: scaled to 0; killed: its task ended). */
export async function bringUp(sd: SwarmDevnet, name: string, s: Docker.Service): Promise<void> {
  const earlier = new Set((await sd.tasks(name)).map((t) => t.ID));
  await sd.update(s, (spec) => {
    const mode = spec.Mode?.Replicated;
    if (mode !== undefined && mode.Replicas === 0) mode.Replicas = 1;
    // The replica is there but its task ended (killed): a new task, on the same machine.
    else forceNewTask(spec);
  });
  try {
    await waitRunning(sd, name, earlier);
  } catch (e) {
    // Undone: a task left pending would take the node up later, unasked, once its machine fits it.
    const now = await sd.service(name);
    if (now !== null)
      await sd.update(now, (spec) => {
        spec.Mode = { Replicated: { Replicas: 0 } };
      });
    throw e;
  }
}

/**
 * The test runner's scheduling rules, pure (no process, no clock): the order the files are tried
 * in, and which may start now beside what runs. .ci/tests/runTests.mjs acts on them;
 * .ci/tests/replay.mjs replays a run's timings under them, to try a rule before a CI run does.
 *
 * A job is { file, kind, weight, seconds } (kinds and weights: testGroups.mjs). The engine is the
 * one resource no weight describes: the swarm files run one at a time on the runner's test swarm,
 * so they are on the run's critical path, and the other files fill the capacity around them.
 */

const SWARM_KINDS = ['swarm', 'swarm-alone'];

/** 0 for a file that makes a swarm of its own (before the runner's), 1 for the engine's others, 2 for the rest. */
function rank(job) {
  if (job.kind === 'swarm-alone') return 0;
  return job.kind === 'swarm' || job.kind === 'docker' ? 1 : 2;
}

/**
 * The order in which the queue is tried: a swarm-alone file first (it needs the engine in no
 * swarm, before the runner's swarm is made), then the engine's files, then the rest; the longest
 * first within each, so that no long file is left to run alone at the end.
 */
export function order(jobs) {
  return [...jobs].sort((a, b) => rank(a) - rank(b) || b.seconds - a.seconds || a.file.localeCompare(b.file));
}

/**
 * Whether `job` may run beside what runs, as far as the engine goes. `swarm` is the runner's
 * test swarm: 'none' (not made yet), 'making', 'up', or anything else (taken apart, or failed).
 *
 * The swarm files run one at a time (their devnets share the swarm's three engines and the
 * runner cleans the swarm between two of them); a swarm-alone file (it makes a swarm of its own
 * and checks the engine as it found it) runs with no other file of the engine and only while
 * the runner's swarm is not there. Docker files run beside each other and beside a swarm file:
 * a docker devnet is containers on bridge networks of its own, which the swarm (services,
 * overlay networks, the workers' engines) and its clean-up never touch; only while the swarm is
 * being made (the engine's swarm init) or a swarm-alone file runs do they wait.
 */
function engineAllows(job, kinds, swarm) {
  const swarmFileRuns = kinds.some((k) => SWARM_KINDS.includes(k));
  if (job.kind === 'swarm-alone')
    return !swarmFileRuns && !kinds.includes('docker') && swarm !== 'making' && swarm !== 'up';
  // While the runner's swarm is made, a swarm file waits for it (startable keeps its room).
  if (job.kind === 'swarm') return !swarmFileRuns;
  if (job.kind === 'docker') return !kinds.includes('swarm-alone') && swarm !== 'making';
  return true;
}

/**
 * The jobs of `queue` (in order) that start now, beside `running` ({ job, remaining }: its
 * expected seconds left, from testGroups.mjs), within `capacity`; and whether the runner's swarm
 * is to be made first (a swarm file could start but there is none yet).
 *
 * The first job the engine allows but the capacity does not is reserved for (backfilling, as
 * batch schedulers do): from the running jobs' expected ends, the time it can start and the
 * capacity left beside it then; a later job starts now only if it fits now and either ends
 * before that time or fits beside it. Without the reservation a heavy file (a STRICT one, or a swarm
 * file after two devnets of kind none) was overtaken by lighter ones until the end of the run,
 * then ran alone (77 s of a 1112 s CI run).
 */
export function startable(queue, running, capacity, swarm) {
  const kinds = running.map((r) => r.job.kind);
  let used = running.reduce((s, r) => s + r.job.weight, 0);
  const start = [];
  let reserved = null; // { at: seconds from now, spare: capacity left beside it then }
  let makeSwarm = false;
  for (const job of queue) {
    if (!engineAllows(job, kinds, swarm)) continue;
    if (job.kind === 'swarm' && (swarm === 'none' || swarm === 'making')) {
      // It waits for the runner's swarm (made now, if not yet): its room is kept meanwhile, and
      // the docker files wait as they do while the swarm is made.
      makeSwarm ||= swarm === 'none';
      swarm = 'making';
      reserved ??= reservation(job, running, start, capacity);
      continue;
    }
    const fits = kinds.length === 0 || used + job.weight <= capacity;
    if (!fits) {
      reserved ??= reservation(job, running, start, capacity);
      continue;
    }
    if (reserved !== null && job.seconds > reserved.at && job.weight > reserved.spare) continue;
    if (reserved !== null && job.seconds > reserved.at) reserved.spare -= job.weight;
    start.push(job);
    kinds.push(job.kind);
    used += job.weight;
  }
  return { start, makeSwarm };
}

/** When `job` can start, from the expected ends of what runs, and the capacity spare beside it then. */
function reservation(job, running, started, capacity) {
  const ends = [
    ...running.map((r) => ({ weight: r.job.weight, end: Math.max(0, r.remaining) })),
    ...started.map((j) => ({ weight: j.weight, end: j.seconds })),
  ].sort((a, b) => a.end - b.end);
  let used = ends.reduce((s, e) => s + e.weight, 0);
  // It may fit now and wait for something else (the runner's swarm).
  if (used + job.weight <= capacity) return { at: 0, spare: capacity - used - job.weight };
  for (const e of ends) {
    used -= e.weight;
    if (used + job.weight <= capacity) return { at: e.end, spare: capacity - used - job.weight };
  }
  return { at: 0, spare: capacity - job.weight };
}

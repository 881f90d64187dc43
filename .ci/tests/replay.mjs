#!/usr/bin/env node
/**
 * Replays a test run's timings under the runner's scheduling rules (schedule.mjs), without running
 * anything, with today's kinds and weights (testGroups.mjs): each file takes the time it took in
 * that run (artifacts/tests/timings.tsv, or the file given), the runner's swarm the time given to make and take apart. Prints the wall time the
 * rules would give (with --timeline, when each file would start), to try a rule (or a weight in
 * testGroups.mjs) before a CI run does. The files' times beside others differ from their times in
 * that run, so the result is an estimate; docs/BENCHMARKS.md says how it compared.
 *
 *   node .ci/tests/replay.mjs [timings.tsv] [--capacity 7] [--swarm-make 18] [--swarm-apart 2] [--timeline]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { order, startable } from './schedule.mjs';
import { SUITES } from './testGroups.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    capacity: { type: 'string', default: '7' },
    'swarm-make': { type: 'string', default: '18' },
    'swarm-apart': { type: 'string', default: '2' },
    timeline: { type: 'boolean', default: false },
  },
});
const capacity = Number(values.capacity);
const swarmMake = Number(values['swarm-make']);
const swarmApart = Number(values['swarm-apart']);
const file = positionals[0] ?? 'artifacts/tests/timings.tsv';

const jobs = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [seconds, , kind, weight, path] = line.split('\t');
    // What testGroups.mjs says now, where it lists the file: the rules to try are today's.
    const listed = Object.values(SUITES).find((s) => path in s.files)?.files[path];
    return {
      file: path,
      kind: listed?.kind ?? kind,
      weight: listed?.weight ?? Number(weight),
      seconds: Number(seconds),
    };
  });

let queue = order(jobs);
let now = 0;
let swarm = 'none';
let swarmReadyAt = null;
const running = []; // { job, end }
const log = [];

while (queue.length > 0 || running.length > 0 || swarm === 'making') {
  // The runner's swarm: taken apart once no swarm file runs or waits.
  if (
    swarm === 'up' &&
    !running.some((r) => r.job.kind === 'swarm') &&
    !queue.some((j) => j.kind === 'swarm')
  ) {
    swarm = 'apart';
    now += swarmApart;
    log.push(`${now.toFixed(1)}\tswarm taken apart`);
  }
  const { start, makeSwarm } = startable(
    queue,
    running.map((r) => ({ job: r.job, remaining: r.end - now })),
    capacity,
    swarm,
  );
  if (makeSwarm && swarm === 'none') {
    swarm = 'making';
    swarmReadyAt = now + swarmMake;
    log.push(`${now.toFixed(1)}\tmaking the swarm`);
  }
  for (const job of start) {
    running.push({ job, end: now + job.seconds });
    log.push(`${now.toFixed(1)}\tstart\t${job.kind}\t${job.weight}\t${job.seconds}\t${job.file}`);
  }
  queue = queue.filter((j) => !start.includes(j));
  const next = Math.min(...running.map((r) => r.end), swarm === 'making' ? swarmReadyAt : Infinity);
  if (!Number.isFinite(next))
    throw new Error(`nothing runs and nothing can start: ${queue.map((j) => j.file).join(', ')}`);
  now = next;
  if (swarm === 'making' && now >= swarmReadyAt) {
    swarm = 'up';
    log.push(`${now.toFixed(1)}\tswarm up`);
  }
  for (const r of running.filter((r) => r.end <= now)) running.splice(running.indexOf(r), 1);
}

if (values.timeline) for (const line of log) console.log(line);
const serial = jobs.reduce((s, j) => s + j.seconds, 0);
console.log(
  `${jobs.length} files from ${file}, capacity ${capacity}: wall ${now.toFixed(1)} s (the files one after another ${serial.toFixed(1)} s)`,
);

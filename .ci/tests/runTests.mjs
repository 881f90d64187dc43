#!/usr/bin/env node
/**
 * Runs the test suites (npm run test:unit, test:e2e, and both in one schedule for npm test): every
 * test file in its own `node --test` process, several at once within what .ci/tests/testGroups.mjs
 * says each file needs and schedule.mjs rules (one swarm file at a time; at most `capacity` of
 * weight at once; the engine's files first, the longest first), reserving room for a heavy file
 * rather than letting lighter ones overtake it. Each file's output is printed whole when it ends (so files
 * run at once never mix their lines), a failed one named again at the end; any failure fails the run.
 * The swarm files run one after another on one test swarm (devnet/src/harness/sharedSwarm.ts),
 * made before the first of them and taken apart after the last, also when a file fails or the run
 * is stopped (SIGINT, SIGTERM; a killed run's swarm is taken apart by the next start); docker
 * files run beside them. A swarm-alone file (one that makes a swarm of its own) runs when it is
 * not there. `node .ci/tests/replay.mjs` replays a run's timings under these rules.
 * Per file: its wall time in artifacts/tests/timings.tsv and its JUnit report in
 * artifacts/tests/junit/ (CI keeps artifacts/).
 *
 *   node .ci/tests/runTests.mjs unit e2e [--capacity 7] [--without swarm] [--match TEXT] [--list]
 *
 * --capacity (or TEST_CAPACITY) sets the weight that may run at once. --without KIND leaves out the
 * files of that kind, saying so loudly (for a machine whose engine someone else's swarm holds).
 * --match TEXT (repeatable) runs only the files whose path has a TEXT in it. --list prints the
 * files in the order they start (kind, weight, seconds) and runs none. npm test passes none.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { order, startable } from './schedule.mjs';
import { swarmHarness } from './swarmHarness.mjs';
import { SUITES } from './testGroups.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS = join(ROOT, 'artifacts', 'tests');
const HEARTBEAT_MS = 60_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    capacity: { type: 'string', default: process.env.TEST_CAPACITY ?? '7' },
    without: { type: 'string', multiple: true, default: [] },
    match: { type: 'string', multiple: true, default: [] },
    list: { type: 'boolean', default: false },
  },
});
const capacity = Number(values.capacity);
if (!Number.isInteger(capacity) || capacity < 1)
  fail(`--capacity must be a whole number >= 1, got ${values.capacity}`);
const suites = positionals.length === 0 ? ['unit', 'e2e'] : positionals;
for (const s of suites) if (!(s in SUITES)) fail(`no suite ${s} (suites: ${Object.keys(SUITES).join(', ')})`);

/** The runner's test swarm: none yet, being made, up (`swarm`), or taken apart / not made (`reason`). */
const shared = {
  state: 'none',
  swarm: null,
  clean: null,
  dirty: false,
  reason: '',
  seconds: 0,
  apartSeconds: 0,
};

function fail(message) {
  console.error(`runTests: ${message}`);
  process.exit(2);
}

/** Every *.test.js under `dir`, as a path from the repository root. */
function testFiles(dir) {
  if (!existsSync(join(ROOT, dir))) fail(`${dir} does not exist: run npm run build first`);
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) =>
      relative(ROOT, join(e.parentPath ?? e.path, e.name))
        .split('\\')
        .join('/'),
    );
}

/** The jobs of the chosen suites, in the order they are tried (schedule.mjs). */
function jobsOf(names) {
  const jobs = [];
  for (const name of names) {
    const suite = SUITES[name];
    const roots = Object.entries(suite.roots);
    const found = roots.flatMap(([root]) => testFiles(root)).sort();
    for (const listed of Object.keys(suite.files))
      if (!found.includes(listed))
        fail(`.ci/tests/testGroups.mjs lists ${listed}, which is no test file now`);
    for (const file of found) {
      const need = suite.files[file] ?? {};
      const kind = need.kind ?? roots.find(([root]) => file.startsWith(`${root}/`))[1];
      jobs.push({ file, kind, weight: need.weight ?? 1, seconds: need.seconds ?? 0 });
    }
  }
  return order(jobs);
}

const all = jobsOf(suites).filter(
  (j) => values.match.length === 0 || values.match.some((m) => j.file.includes(m)),
);
// --without swarm leaves out the swarm-alone files too.
const leftOut = (j) => values.without.some((w) => j.kind === w || j.kind === `${w}-alone`);
const left = all.filter(leftOut);
const queue = all.filter((j) => !leftOut(j));
if (left.length > 0)
  console.log(
    `\n!! --without ${values.without.join(', ')}: NOT running ${left.map((j) => j.file).join(', ')}\n`,
  );

if (values.list) {
  for (const j of queue) console.log(`${j.kind}\t${j.weight}\t${j.seconds}\t${j.file}`);
  process.exit(0);
}

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(join(RESULTS, 'junit'), { recursive: true });

const started = Date.now();
const running = new Map(); // file -> { job, child, t0 }
const done = [];
let used = 0;
let stopping = null;

const seconds = (ms) => (ms / 1000).toFixed(1);

/** Makes the test swarm for the swarm files (their own start says why when it cannot be made). */
async function makeSharedSwarm() {
  shared.state = 'making';
  const t0 = Date.now();
  console.log('… making the test swarm for the swarm files');
  try {
    const { startTestSwarm, cleanSharedSwarm } = await swarmHarness();
    shared.clean = () => cleanSharedSwarm((l) => console.log(`… ${l}`));
    // Taken apart here after the last swarm file, also on SIGINT/SIGTERM once the files have ended.
    const made = await startTestSwarm({
      workers: 2,
      onSignals: false,
      shared: false,
      log: (l) => console.log(`… ${l}`),
    });
    if (made.ok) {
      Object.assign(shared, { state: 'up', swarm: made.swarm, seconds: (Date.now() - t0) / 1000 });
      console.log(
        `… the test swarm is made in ${seconds(Date.now() - t0)} s: ${made.swarm.machines.join(', ')}`,
      );
    } else Object.assign(shared, { state: 'failed', reason: made.reason });
  } catch (e) {
    Object.assign(shared, { state: 'failed', reason: e.message });
  }
  if (shared.state === 'failed')
    console.log(`… no test swarm (${shared.reason}): each swarm file tries to make its own`);
  startAll();
}

/**
 * Once no swarm file runs: what the files left on the test swarm taken off it (their devnets'
 * own downs leave nothing, but a failed file's may), and the swarm taken apart if none is left
 * to run.
 */
function takeSharedSwarmApart(force) {
  if (shared.state !== 'up') return;
  const swarmRunning = [...running.values()].some((r) => r.job.kind === 'swarm');
  if (swarmRunning && !force) return;
  if (queue.some((j) => j.kind === 'swarm') && !force) {
    if (shared.dirty) shared.clean();
    shared.dirty = false;
    return;
  }
  const t0 = Date.now();
  shared.swarm.teardown();
  shared.state = 'apart';
  shared.apartSeconds = (Date.now() - t0) / 1000;
  console.log(`… the test swarm is taken apart in ${seconds(Date.now() - t0)} s`);
}

function startAll() {
  takeSharedSwarmApart(false);
  if (stopping === null) {
    const now = Date.now();
    const { start: ready, makeSwarm } = startable(
      queue,
      [...running.values()].map((r) => ({ job: r.job, remaining: r.job.seconds - (now - r.t0) / 1000 })),
      capacity,
      shared.state,
    );
    if (makeSwarm && shared.state === 'none') makeSharedSwarm();
    for (const job of ready) {
      queue.splice(queue.indexOf(job), 1);
      start(job);
    }
  }
  if (running.size === 0 && queue.length === 0 && shared.state !== 'making') finish();
}

/** A swarm file runs on the runner's test swarm, when there is one; no other file knows of it. */
function envOf(job) {
  const env = { ...process.env };
  delete env.CHAIN_DEVNET_SHARED_SWARM;
  if (job.kind === 'swarm' && shared.state === 'up')
    env.CHAIN_DEVNET_SHARED_SWARM = JSON.stringify({ machines: shared.swarm.machines });
  return env;
}

function start(job) {
  const junit = join(RESULTS, 'junit', `${job.file.replace(/\.test\.js$/, '').replaceAll('/', '_')}.xml`);
  const child = spawn(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=junit',
      `--test-reporter-destination=${junit}`,
      job.file,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: envOf(job) },
  );
  const output = [];
  child.stdout.on('data', (b) => output.push(b));
  child.stderr.on('data', (b) => output.push(b));
  used += job.weight;
  if (job.kind === 'swarm' && shared.state === 'up') shared.dirty = true;
  running.set(job.file, { job, child, t0: Date.now() });
  console.log(`… ${job.file} started (${[...running.keys()].length} running, weight ${used}/${capacity})`);
  child.on('close', (code, signal) => {
    const r = running.get(job.file);
    running.delete(job.file);
    used -= job.weight;
    const ms = Date.now() - r.t0;
    const ok = code === 0;
    done.push({ job, ms, ok, output: Buffer.concat(output).toString() });
    const how = ok ? 'pass' : `FAIL (${signal ?? `exit ${code}`})`;
    console.log(`\n▶ ${job.file}: ${how} in ${seconds(ms)} s [${done.length}/${all.length - left.length}]`);
    process.stdout.write(done.at(-1).output);
    startAll();
  });
}

/**
 * What a failed file's reporter says failed (the spec reporter's "failing tests" list, with each
 * error's message), or its last lines without one, bounded: repeated at the very end of the run, where a
 * reader of a long log (or of its tail only) looks first.
 */
function failureExcerpt(output, max = 60) {
  const lines = output.trimEnd().split('\n');
  const at = lines.findIndex((l) => l.includes('failing tests:'));
  // Stack frames left out: the messages say what failed; the frames are in the output above.
  let part = (at >= 0 ? lines.slice(at + 1) : lines.slice(-max)).filter((l) => !/^\s+at /.test(l));
  // The file itself failed (its process ended non-zero, its tests passed or never ran): what it
  // printed last says why (a CI run showed only 'test failed' for a file whose output it had).
  if (at >= 0 && part.some((l) => l.includes("'test failed'"))) {
    const summary = lines.findIndex((l) => /^ℹ tests \d+/.test(l));
    const before = lines.slice(Math.max(0, (summary >= 0 ? summary : at) - 25), summary >= 0 ? summary : at);
    part = [...part, "its last lines before the reporter's summary:", ...before];
  }
  return part.length <= max
    ? part
    : [...part.slice(0, max), `… ${part.length - max} more lines above, under ▶`];
}

function finish() {
  takeSharedSwarmApart(true);
  const wall = Date.now() - started;
  const failed = done.filter((d) => !d.ok);
  const tsv = [...done]
    .sort((a, b) => b.ms - a.ms)
    .map((d) => `${seconds(d.ms)}\t${d.ok ? 'pass' : 'fail'}\t${d.job.kind}\t${d.job.weight}\t${d.job.file}`);
  writeFileSync(join(RESULTS, 'timings.tsv'), `seconds\tresult\tkind\tweight\tfile\n${tsv.join('\n')}\n`);
  console.log(`\n== the slowest files (all in artifacts/tests/timings.tsv)`);
  for (const line of tsv.slice(0, 15)) console.log(line);
  const serial = done.reduce((s, d) => s + d.ms, 0);
  console.log(
    `\n== ${suites.join(' + ')}: ${done.length} files, ${done.length - failed.length} passed, ${failed.length} failed;` +
      ` wall ${seconds(wall)} s (the files one after another: ${seconds(serial)} s), capacity ${capacity}`,
  );
  if (shared.seconds > 0)
    console.log(
      `== the swarm files' test swarm: made in ${shared.seconds.toFixed(1)} s, taken apart in ${shared.apartSeconds.toFixed(1)} s (in no file's time)`,
    );
  if (left.length > 0)
    console.log(`!! not run (--without ${values.without.join(', ')}): ${left.length} files`);
  for (const d of failed) {
    console.log(`✖ failed: ${d.job.file} (its whole output is above, under ▶ ${d.job.file}); what failed:`);
    for (const line of failureExcerpt(d.output)) console.log(`  ${line}`);
  }
  process.exit(stopping ?? (failed.length > 0 ? 1 : 0));
}

setInterval(() => {
  const now = Date.now();
  const list = [...running.values()].map((r) => `${r.job.file} (${seconds(now - r.t0)} s)`);
  if (list.length > 0) console.log(`… ${seconds(now - started)} s: running ${list.join(', ')}`);
}, HEARTBEAT_MS).unref();

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stopping = signal === 'SIGINT' ? 130 : 143;
    console.log(`\n!! ${signal}: ${queue.length} files not started; the ${running.size} running are stopped`);
    queue.length = 0;
    // Each file takes apart what it made on SIGINT/SIGTERM (its own handlers); wait for them.
    for (const r of running.values()) r.child.kill(signal);
    if (running.size === 0) finish();
  });

startAll();

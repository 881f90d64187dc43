/**
 * The test runner's rules (.ci/tests/schedule.mjs): which files start beside which, on the engine
 * and within the capacity. A wrong rule shows only as a slower or flakier CI run, so the rules
 * that keep files apart (a swarm-alone file alone; one swarm file at a time; nothing of the
 * engine while the runner's swarm is made) and the reservation that keeps a heavy file from
 * being overtaken until the end are checked here, on made-up queues.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

interface Job {
  readonly file: string;
  readonly kind: 'swarm' | 'swarm-alone' | 'docker' | 'none';
  readonly weight: number;
  readonly seconds: number;
}
interface Schedule {
  order(jobs: readonly Job[]): Job[];
  startable(
    queue: readonly Job[],
    running: readonly { job: Job; remaining: number }[],
    capacity: number,
    swarm: string,
  ): { start: Job[]; makeSwarm: boolean };
}

const { order, startable } = (await import(
  pathToFileURL(join(ROOT, '.ci', 'tests', 'schedule.mjs')).href
)) as Schedule;
const { SUITES } = (await import(pathToFileURL(join(ROOT, '.ci', 'tests', 'testGroups.mjs')).href)) as {
  SUITES: Record<string, { files: Record<string, unknown> }>;
};

/** The source of a compiled test file: `<package>/dist/<path>.js` is `<package>/<path>.ts`. */
const sourceOf = (compiled: string) => compiled.replace(/^(\w+)\/dist\//, '$1/').replace(/\.js$/, '.ts');

const job = (file: string, kind: Job['kind'], weight = 2, seconds = 60): Job => ({
  file,
  kind,
  weight,
  seconds,
});
const files = (jobs: readonly Job[]) => jobs.map((j) => j.file);
const runs = (j: Job, remaining = 30) => ({ job: j, remaining });

describe('the runner’s test swarm', () => {
  it('comes from the devnet package’s harness, which has what the runner calls', async () => {
    const { swarmHarness } = (await import(
      pathToFileURL(join(ROOT, '.ci', 'tests', 'swarmHarness.mjs')).href
    )) as {
      swarmHarness(): Promise<Record<string, unknown>>;
    };
    const h = await swarmHarness();
    assert.equal(typeof h.startTestSwarm, 'function');
    assert.equal(typeof h.cleanSharedSwarm, 'function');
  });
});

describe('the test runner’s list of files (testGroups.mjs)', () => {
  // A file moved or renamed without its entry would run as a light one of its folder's kind, unseen.
  it('names only test files that exist', () => {
    const listed = Object.values(SUITES).flatMap((s) => Object.keys(s.files));
    assert.ok(listed.length > 20, `only ${listed.length} files listed`);
    assert.deepEqual(
      listed.filter((f) => !existsSync(join(ROOT, sourceOf(f)))),
      [],
      'listed files whose source is gone',
    );
    assert.equal(sourceOf('devnet/dist/tests/runtime/x.test.js'), 'devnet/tests/runtime/x.test.ts');
    assert.equal(sourceOf('e2e/dist/swarm.test.js'), 'e2e/swarm.test.ts');
  });
});

describe('the test runner’s schedule', () => {
  it('orders a swarm-alone file first, then the engine’s files, then the rest, the longest first', () => {
    const jobs = [
      job('none-long', 'none', 2, 300),
      job('docker-short', 'docker', 2, 10),
      job('swarm', 'swarm', 2, 100),
      job('alone', 'swarm-alone', 2, 5),
      job('docker-long', 'docker', 2, 150),
    ];
    assert.deepEqual(files(order(jobs)), ['alone', 'docker-long', 'swarm', 'docker-short', 'none-long']);
  });

  it('runs docker files beside a swarm file, but one swarm file at a time', () => {
    const queue = [job('swarm-2', 'swarm'), job('docker', 'docker'), job('proc', 'none')];
    const { start } = startable(queue, [runs(job('swarm-1', 'swarm'))], 7, 'up');
    assert.deepEqual(files(start), ['docker', 'proc']);
  });

  it('makes the runner’s swarm first, keeps the swarm file’s room, and holds docker files meanwhile', () => {
    const queue = [
      job('swarm', 'swarm'),
      job('docker', 'docker'),
      job('proc-1', 'none'),
      job('proc-2', 'none'),
    ];
    const first = startable(queue, [runs(job('proc-0', 'none'))], 7, 'none');
    assert.equal(first.makeSwarm, true);
    // 2 running + 2 kept for the swarm file: one more devnet file fits, not two.
    assert.deepEqual(files(first.start), ['proc-1']);
    const making = startable(queue, [], 7, 'making');
    assert.equal(making.makeSwarm, false);
    assert.deepEqual(files(making.start), ['proc-1', 'proc-2']);
  });

  it('runs a swarm-alone file only on an engine no other file uses, and never beside the runner’s swarm', () => {
    const alone = job('alone', 'swarm-alone');
    assert.deepEqual(files(startable([alone], [runs(job('proc', 'none'))], 7, 'none').start), ['alone']);
    assert.deepEqual(files(startable([alone], [runs(job('docker', 'docker'))], 7, 'none').start), []);
    assert.deepEqual(files(startable([alone], [], 7, 'up').start), []);
    const beside = startable([job('docker', 'docker'), job('swarm', 'swarm')], [runs(alone)], 7, 'none');
    assert.deepEqual(files(beside.start), []);
    assert.equal(beside.makeSwarm, false);
  });

  it('keeps room for a heavy file: later files start only if they end before it can start or fit beside it', () => {
    const strict = job('strict', 'docker', 6, 90);
    const running = [runs(job('a', 'none'), 20), runs(job('b', 'none'), 50)];
    const queue = [
      strict,
      job('long', 'none', 2, 100),
      job('quick', 'none', 2, 10),
      job('light', 'none', 1, 5),
    ];
    // 4 of 7 in use: the strict file (6) can start once both have ended (in 50 s), with 1 spare.
    // "long" would still run then and need 2; "quick" ends before; "light" fits in the spare 1.
    assert.deepEqual(files(startable(queue, running, 7, 'apart').start), ['quick', 'light']);
    // Without the heavy file ahead, "long" starts (the capacity allows it), and then "quick" is
    // the one waited for (room in 20 s): "light" ends before that.
    assert.deepEqual(files(startable(queue.slice(1), running, 7, 'apart').start), ['long', 'light']);
  });

  it('starts a file heavier than the capacity when nothing else runs', () => {
    assert.deepEqual(files(startable([job('huge', 'none', 9)], [], 7, 'none').start), ['huge']);
  });
});

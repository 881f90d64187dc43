/**
 * `devnet test --runtime sim` as a user runs it (the bundled CLI): a scenario file on the
 * simulation, the same seed twice to one fingerprint and another seed to another; a step that
 * fails exits 1 naming it; a file with what the simulation lacks is refused naming each field;
 * the seed search over drawn fault schedules, run twice to the same fingerprints (the CI's
 * determinism check); flags that are not the simulation's are refused.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devnetCli } from '../../../src/harness/cli.js';

const EXAMPLE = 'devnet/scenarios/sim-faults.yaml';

interface SimJson {
  readonly seed: string;
  readonly ok: boolean;
  readonly fingerprint: string;
  readonly failures?: readonly string[];
}

async function simJson(args: readonly string[]): Promise<SimJson[]> {
  const r = await devnetCli(['test', ...args, '--runtime', 'sim', '--json']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return JSON.parse(r.stdout) as SimJson[];
}

describe('devnet test --runtime sim', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sim-test-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a scenario file: each seed twice is one fingerprint, two seeds are two', async () => {
    const first = await simJson([EXAMPLE, '--seeds', '2', '--seed', 'twice']);
    const again = await simJson([EXAMPLE, '--seeds', '2', '--seed', 'twice']);
    assert.deepEqual(
      first.map((r) => [r.seed, r.ok]),
      [
        ['twice-0', true],
        ['twice-1', true],
      ],
    );
    assert.deepEqual(
      again.map((r) => r.fingerprint),
      first.map((r) => r.fingerprint),
    );
    assert.notEqual(first[0]!.fingerprint, first[1]!.fingerprint);
    assert.match(first[0]!.fingerprint, /^[0-9a-f]{64}$/);
  });

  test('tx steps and the chain expectations (tx, account, validator) through the nodes RPC, one fingerprint a seed', async () => {
    const file = 'devnet/scenarios/sim-transactions.yaml';
    const [a] = await simJson([file, '--seed', 'tx']);
    const [b] = await simJson([file, '--seed', 'tx']);
    assert.equal(a!.ok, true, JSON.stringify(a));
    assert.equal(a!.fingerprint, b!.fingerprint);
    // A tx step whose transaction is not what the file expects fails, naming it.
    const wrong = join(dir, 'wrong-tx.yaml');
    await writeFile(
      wrong,
      [
        'manifest: { validators: 4 }',
        'steps:',
        '  - tx: { type: TRANSFER, from: account-0, to: validator-1, amount: 1coin, status: rejected }',
      ].join('\n'),
    );
    const r = await devnetCli(['test', wrong, '--runtime', 'sim', '--seed', 'x']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /expected the TRANSFER [0-9a-f]{64} rejected; found confirmed/);
  });

  test('network conditions: zones from the manifest, net, oneWay and partitionShape steps as on a devnet; one fingerprint a seed', async () => {
    const file = 'devnet/scenarios/sim-network.yaml';
    const [a] = await simJson([file, '--seed', 'net']);
    const [b] = await simJson([file, '--seed', 'net']);
    assert.equal(a!.ok, true, JSON.stringify(a));
    assert.equal(a!.fingerprint, b!.fingerprint);
    // The conditions are real: a node behind 5 s on what it receives is not synced within a block.
    const late = join(dir, 'late.yaml');
    await writeFile(
      late,
      [
        'manifest: { validators: 4, block_time: 1s }',
        'steps:',
        '  - expect: { height: { atLeast: 2 } }',
        '  - net: { node: validator-2, direction: in, latency: 5s }',
        '  - wait: { blocks: 6, nodes: [validator-0, validator-1, validator-3] }',
        '  - expect: { synced: { maxLag: 1, within: { seconds: 1 } } }',
      ].join('\n'),
    );
    const r = await devnetCli(['test', late, '--runtime', 'sim', '--seed', 'late']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /✘ steps\[3\] expect synced: expected validator-0, validator-1, validator-2, validator-3 synced/,
    );
  });

  test('chain steps and a node added by state sync with stake, as on a devnet: held, mined to an epoch, an hour on; ACTIVE at its boundary; one fingerprint a seed', async () => {
    const file = 'devnet/scenarios/sim-time.yaml';
    const [a] = await simJson([file, '--seed', 'time']);
    const [b] = await simJson([file, '--seed', 'time']);
    assert.equal(a!.ok, true, JSON.stringify(a));
    assert.equal(a!.fingerprint, b!.fingerprint);
    // The hold is real: a held chain that is expected to move fails, naming the step.
    const moving = join(dir, 'held-moving.yaml');
    await writeFile(
      moving,
      [
        'manifest: { validators: 4, block_time: 1s }',
        'steps:',
        '  - expect: { height: { atLeast: 2 } }',
        '  - chain: pause',
        '  - wait: { blocks: 1 }',
      ].join('\n'),
    );
    const r = await devnetCli(['test', moving, '--runtime', 'sim', '--seed', 'held']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /✘ steps\[2\] wait 1 blocks: expected validator-0, .* at height (\d+) \(1 blocks on\); found validator-0 \d+/,
    );
  });

  test('upgrade plans as on a devnet: one applied at its height, one no build has halting every validator; one fingerprint a seed', async () => {
    const file = 'devnet/scenarios/sim-upgrade.yaml';
    const [a] = await simJson([file, '--seed', 'upgrade']);
    const [b] = await simJson([file, '--seed', 'upgrade']);
    assert.equal(a!.ok, true, JSON.stringify(a));
    assert.equal(a!.fingerprint, b!.fingerprint);
  });

  test('disk steps: a full disk stops a validator while the others go on; freed, it catches up; one fingerprint a seed', async () => {
    const file = join(dir, 'disk.yaml');
    await writeFile(
      file,
      [
        'manifest: { validators: 4, block_time: 1s }',
        'steps:',
        '  - expect: { height: { atLeast: 2 } }',
        '  - disk: { node: validator-3, full: true, slowWrites: 20ms }',
        '  - wait: { blocks: 4, nodes: [validator-0, validator-1, validator-2] }',
        '  - expect: { stalled: { seconds: 3, nodes: [validator-3], within: { seconds: 2 } } }',
        '  - disk: { node: validator-3, clear: true }',
        '  - expect: { synced: { within: { blocks: 20 } } }',
      ].join('\n'),
    );
    const [a] = await simJson([file, '--seed', 'disk']);
    const [b] = await simJson([file, '--seed', 'disk']);
    assert.equal(a!.ok, true, JSON.stringify(a));
    assert.equal(a!.fingerprint, b!.fingerprint);
  });

  test("the README's smoke scenario (transfers between the developer accounts) on the simulation", async () => {
    // Its network had one developer account (the seed search's) where a devnet has three: account-1 was unknown.
    const [r] = await simJson(['devnet/scenarios/smoke.yaml', '--seed', 'smoke']);
    assert.equal(r!.ok, true, JSON.stringify(r));
  });

  test('--record DIR: every node records its consensus, and devnet replay re-executes it to the same actions', async () => {
    const records = join(dir, 'records');
    const r = await devnetCli(['test', EXAMPLE, '--runtime', 'sim', '--seed', 'rec', '--record', records]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(r.stdout.includes(`consensus records in ${join(records, 'rec')}`), r.stdout);
    for (const node of ['validator-0', 'validator-1', 'validator-2', 'validator-3']) {
      const replay = await devnetCli(['replay', join(records, 'rec'), '--node', node, '--json']);
      assert.equal(replay.code, 0, replay.stdout + replay.stderr);
      const j = JSON.parse(replay.stdout) as { divergence: unknown; decisions: number; from: number };
      assert.equal(j.divergence, null);
      assert.equal(j.from, 1);
      assert.ok(j.decisions >= 5, `${node}: ${j.decisions} decisions`);
    }
    const search = await devnetCli(['test', '--runtime', 'sim', '--seeds', '1', '--record', records]);
    assert.equal(search.code, 2);
    assert.match(search.stderr, /--record is for scenario files/);
  });

  test('the lines: every step with its virtual time, the invariants, the fingerprint, PASS', async () => {
    const r = await devnetCli(['test', EXAMPLE, '--runtime', 'sim', '--seed', 'lines']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const line of [
      'scenario sim-faults (devnet/scenarios/sim-faults.yaml) on the simulation, seed "lines"',
      '✔ invariants',
      'PASS  sim-faults  seed lines',
    ])
      assert.ok(r.stdout.includes(line), `${line} in:\n${r.stdout}`);
    assert.match(r.stdout, /fingerprint [0-9a-f]{64} \(\d+\.\d s of virtual time\)/);
    // The stall holds its 10 s of virtual time (more when a height landed as the window began).
    const stalled = /✔ steps\[9\] no quorum anywhere \((\d+\.\d) s virtual\)/.exec(r.stdout);
    assert.ok(stalled !== null && Number(stalled[1]) >= 10, r.stdout);
  });

  test("the e2e suite's faults under load on the simulation: every step, the load confirmed, one fingerprint a seed", async () => {
    const file = 'e2e/scenarios/faults-under-load.yaml';
    type Loaded = SimJson & {
      readonly load: { sent: number; confirmed: number; failed: number; reasons: Record<string, number> };
    };
    const [first] = (await simJson([file, '--seed', 'ful'])) as Loaded[];
    const [again] = (await simJson([file, '--seed', 'ful'])) as Loaded[];
    assert.equal(first!.ok, true, JSON.stringify(first));
    assert.deepEqual(first!.failures, []);
    // The file's own bound (minConfirmed: 20), and more: the load ran through every fault.
    assert.ok(first!.load.confirmed >= 60, JSON.stringify(first!.load));
    assert.equal(first!.load.failed, 0, JSON.stringify(first!.load));
    assert.equal(again!.fingerprint, first!.fingerprint);
    assert.deepEqual(again!.load, first!.load);
  });

  test('a Byzantine validator: the honest nodes agree and go on, each holds the evidence; a liar that never spoke fails the check', async () => {
    const [run] = await simJson(['devnet/scenarios/sim-byzantine.yaml', '--seed', 'byz']);
    assert.equal(run!.ok, true, JSON.stringify(run));
    const file = join(dir, 'silent-liar.yaml');
    await writeFile(
      file,
      'name: silent-liar\nmanifest: { validators: [{}, {}, {}, { byzantine: equivocate }] }\nsteps:\n' +
        '  - { at: { time: 0s }, kill: { node: validator-3 } }\n' +
        '  - expect: { height: { atLeast: 6 } }\n',
    );
    const r = await devnetCli(['test', file, '--runtime', 'sim']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /✘ invariants: .*evidence: validator-0 holds no evidence against validator-3, which equivocates/,
    );
  });

  test('a step that fails exits 1 naming it, with what was found; the steps after it are skipped', async () => {
    const file = join(dir, 'fails.yaml');
    await writeFile(
      file,
      'name: fails\nmanifest: { validators: 4 }\nsteps:\n' +
        '  - expect: { height: { atLeast: 2 } }\n' +
        '  - expect: { stalled: { seconds: 5 } }\n' +
        '  - kill: { node: validator-0 }\n',
    );
    const r = await devnetCli(['test', file, '--runtime', 'sim']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /✘ steps\[1\] expect stalled: expected no new block on validator-0, .* for 5 s; a height moved/,
    );
    assert.match(r.stdout, /FAIL {2}fails {2}seed seed/);
    assert.ok(!r.stdout.includes('▶ steps[2]'), 'a step after the failure ran');
  });

  test('a file with what the simulation does not have is refused, each field named, nothing run', async () => {
    const file = join(dir, 'unsupported.yaml');
    await writeFile(
      file,
      'name: unsupported\nmanifest: { validators: 4, market: true }\n' +
        'load: { rate: 2, duration: 10, accounts: [account-0], nodes: [validator-0], mix: { UNDELEGATE: 1 } }\nsteps:\n' +
        '  - add: { name: late-joiner, stake: 100coin, version: git:v0.1.0 }\n' +
        '  - upgrade: { node: validator-1, to: git:v0.1.0 }\n' +
        '  - market: { post: { from: account-1, reward: 2coin, challenge: inference, deadline: 25s } }\n',
    );
    const r = await devnetCli(['test', file, '--runtime', 'sim']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    for (const problem of [
      'manifest.market: not simulated yet',
      "load.accounts: the simulation's load sends from the network's own funded accounts: a count, not names",
      'load.nodes: not simulated yet',
      'load.mix.UNDELEGATE: not simulated yet',
      "steps[0].add.version: not simulated (the simulation runs this checkout's code only)",
      'steps[1].upgrade.to: only checkout is simulated',
      'steps[2].market: this step does not run on the simulation yet',
    ])
      assert.ok(r.stderr.includes(problem), `${problem} in:\n${r.stderr}`);
  });

  test('the seed search: drawn fault schedules, each seed judged; run twice, the same fingerprints', async () => {
    const first = await simJson(['--seeds', '4', '--seed', 'search', '--out', dir]);
    const again = await simJson(['--seeds', '4', '--seed', 'search', '--out', dir]);
    assert.deepEqual(
      first.map((r) => [r.seed, r.ok]),
      ['search-0', 'search-1', 'search-2', 'search-3'].map((s) => [s, true]),
    );
    assert.deepEqual(
      again.map((r) => r.fingerprint),
      first.map((r) => r.fingerprint),
    );
  });

  test('flags that are not the simulation’s, and the simulation’s without it, are refused', async () => {
    for (const [args, message] of [
      [[EXAMPLE, '--runtime', 'sim', '--junit', join(dir, 'r.xml')], '--junit is not for --runtime sim'],
      [[EXAMPLE, '--runtime', 'sim', '--validators', '5'], '--validators is for the seed search'],
      [[EXAMPLE, '--runtime', 'process', '--seeds', '3'], '--seeds is for --runtime sim'],
      [[EXAMPLE, '--runtime', 'sim', '--faults', 'disk'], '--faults is for the seed search'],
      [
        ['--runtime', 'sim', '--seeds', '2', '--faults', 'crash,meteor'],
        '--faults: "meteor" is not a kind of fault (crash, pause, partition, skew, links, disk, byzantine, or all)',
      ],
    ] as const) {
      const r = await devnetCli(['test', ...args]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.ok(r.stderr.includes(message), `${message} in:\n${r.stderr}`);
    }
  });
});

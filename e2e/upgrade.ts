/**
 * An upgrade as chain teams rehearse it (issue 28), end to end on one runtime, with two real
 * versions of this repository: four validators start on an older commit (OLD_VERSION, built by the
 * devnet into its build cache, which the three runtime files share), the newer one is this
 * checkout (it registers the migration 1.0.0 -> 1.1.0: new validators' default commission 10% ->
 * 5%, node/src/chain/migrations.ts).
 *
 *   1. every node on the old build, protocol 1.0.0; a validator staked without a commission rate
 *      gets the genesis default (the baseline of the migration's effect);
 *   2. a plan to 1.1.0 scheduled on the running chain (the validators sign UPGRADE_PLAN);
 *   3. two validators upgraded to the checkout before the height: mixed versions, the chain goes
 *      on (a transfer confirmed on every node), the new ones still at protocol 1.0.0 with its
 *      parameters;
 *   4. at the height the two old ones halt: exit code 3 (the node handle's exitCode) and the log
 *      line naming the plan; the new ones wait one block below it, running;
 *   5. the halted ones upgraded one by one (node.upgrade, `devnet upgrade NODE --to checkout`):
 *      the chain goes on past the height; their logs still hold the halt's line and exit code;
 *   6. the migration visible on every node: protocol 1.1.0, the plan applied at its height, the
 *      default commission 5% in the parameters, and a validator staked now gets it;
 *   7. the testkit's invariants over the whole history (one header per height on every node,
 *      proposers, no confirmed transaction lost, supply conserved, no equivocation).
 *
 * One test file per runtime (upgrade.process.test.ts, upgrade.docker.test.ts,
 * upgrade.swarm.test.ts), as .ci/tests/testGroups.mjs schedules them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COIN, type RuntimeKind, slowdown, Testnet, Wallet } from '@chain-devnet/devnet/testkit';
import { waitFor } from '@chain-devnet/kit/wait';
import { OLDER_COMMIT } from '@chain-devnet/node/builds';
import { UPGRADE_HALT_EXIT_CODE } from '@chain-devnet/node/chain';
import type { UpgradesAnswer } from '@chain-devnet/node/client';
import { E2E_LOGS_DIR } from './manifest.js';

/** The older build: the last commit of issue 28's node side without a migration (node 0.1.0). */
export const OLD_VERSION = `git:${OLDER_COMMIT}`;
/** The newer build: this checkout. */
export const NEW_VERSION = 'checkout';
const BASE = '1.0.0';
const TARGET = '1.1.0';
/** The default commission rate of a new validator once 1.1.0 is applied (docs/RULES.md, "Migrations of this build"). */
const MIGRATED_DEFAULT_COMMISSION = 0.05;

export interface RehearsalOptions {
  /** A reason to skip (printed), or false. */
  readonly skip: string | false;
  /**
   * Blocks between the moment the plan is signed and its height: enough for two upgrades on this
   * runtime (a restart of a process, a container made again, a swarm service updated).
   */
  readonly planBlocks: number;
  readonly blockTime: string;
}

const haltLine = (height: number) => `UPGRADE NEEDED: plan ${TARGET} at height ${height}`;

async function upgradesOf(net: Testnet, names: readonly string[]): Promise<Map<string, UpgradesAnswer>> {
  return new Map(await Promise.all(names.map(async (n) => [n, await net.node(n).rpc.upgrades()] as const)));
}

/** A fresh validator staked (the minimum) without a commission rate; its rate on every node. */
async function stakeWithoutRate(net: Testnet, name: string): Promise<{ height: number; rate: number }> {
  const names = net.names();
  const w = Wallet.random(name);
  const via = names[0]!;
  await net.txs.fund(net.txs.faucet(), [w], net.params.minStake + COIN, via);
  const { height } = await net.txs.confirm(
    w,
    { type: 'STAKE', amount: net.params.minStake, payload: { name } },
    via,
  );
  const rates = await Promise.all(
    names.map(async (n) => (await net.chain.validatorOf(n, name)).commission_rate),
  );
  for (const [i, r] of rates.entries())
    assert.equal(r, rates[0], `${names[i]}: commission_rate of ${name} (${r}), ${names[0]} says ${rates[0]}`);
  return { height, rate: rates[0]! };
}

/** The two validators moved to the new build before the plan's height, and the two that halt at it. */
interface Sides {
  readonly early: readonly string[];
  readonly late: readonly string[];
}

/** What the old build says of itself: its node_version and the genesis default commission. */
interface OldBuild {
  readonly oldNodeVersion: string;
  /** As GET /upgrades gives it (its `params` are untyped JSON): compared, never computed with. */
  readonly genesisRate: unknown;
}

async function rehearse(net: Testnet, o: RehearsalOptions): Promise<void> {
  const [n0, n1, n2, n3] = net.names() as [string, string, string, string];
  const sides: Sides = { early: [n0, n1], late: [n2, n3] };
  // 1. The old release runs.
  const old = await net.step('1 the old build runs', () => oldBuildRuns(net));
  // 2. A plan scheduled on the running chain.
  const H = (await net.chain.maxHeight()) + Math.ceil(o.planBlocks * slowdown());
  await net.step(`2 plan ${TARGET} at ${H}`, () => planScheduled(net, H));
  // 3. Two validators on the new build before the height: mixed versions, the chain goes on.
  const newNodeVersion = await net.step('3 two validators upgraded before the height', () =>
    mixedVersionsGoOn(net, H, sides, old),
  );
  // 4. At the height the old ones halt, with the exit code and the line; the new ones wait below it.
  await net.step(`4 the old build halts at ${H}`, () => oldBuildHalts(net, H, sides));
  // 5. The halted ones upgraded one by one; the chain goes on.
  await net.step('5 the halted validators upgraded one by one', () =>
    haltedUpgradedOneByOne(net, H, sides.late),
  );
  // 6. The migration's effect, on every node.
  await net.step('6 the migration applied', () => migrationApplied(net, H, old.genesisRate, newNodeVersion));
}

/** Every node on the old build at protocol 1.0.0, and a validator staked now gets the genesis default. */
async function oldBuildRuns(net: Testnet): Promise<OldBuild> {
  const names = net.names();
  const n0 = names[0]!;
  await net.expect.height({ atLeast: 3 });
  const old = await upgradesOf(net, names);
  const v = old.get(n0)!.node_version;
  for (const [n, u] of old) {
    assert.equal(net.node(n).version(), OLD_VERSION, `${n}: the version it runs on`);
    assert.equal(u.protocol_version, BASE, `${n}: protocol_version on the old build`);
    assert.equal(u.node_version, v, `${n}: node_version on the old build`);
    assert.ok(
      !u.supported_protocol_versions.includes(TARGET),
      `${n}: the old build has no migration to ${TARGET}`,
    );
  }
  const rate = old.get(n0)!.params.default_commission_rate;
  assert.notEqual(rate, MIGRATED_DEFAULT_COMMISSION, 'the migration changes the default');
  // The baseline of the migration's effect.
  const before = await stakeWithoutRate(net, 'staked-before');
  assert.equal(before.rate, rate, `a validator staked at ${before.height} gets the genesis default`);
  return { oldNodeVersion: v, genesisRate: rate };
}

/** The validators sign a plan to TARGET at H; it is in the ledger and scheduled on every node. */
async function planScheduled(net: Testnet, H: number): Promise<void> {
  const names = net.names();
  const counted = net.ledger.size;
  const plan = await net.upgradePlan({ version: TARGET, height: H });
  assert.ok(plan.done, `the plan is scheduled (signed by ${plan.signed_by.join(', ')})`);
  // Its transactions join the ledger: the end-of-run invariants find each on every node.
  assert.equal(plan.txs.length, plan.signed_by.length, 'one confirmed UPGRADE_PLAN per signer');
  assert.equal(net.ledger.size, counted + plan.txs.length, 'the plan transactions are in the ledger');
  // Scheduled on the node the signatures went to; the others see it once they have that block.
  const scheduled = (u: UpgradesAnswer) =>
    u.pending.some((p) => p.target_version === TARGET && p.upgrade_height === H && p.scheduled);
  await waitFor(
    `the plan ${TARGET} at ${H} scheduled in every node's GET /upgrades`,
    net.within(5),
    async () => [...(await upgradesOf(net, names)).values()].every(scheduled),
  );
  for (const [n, u] of await upgradesOf(net, names))
    assert.ok(
      scheduled(u),
      `${n}: the plan ${TARGET} at ${H} scheduled in GET /upgrades: ${JSON.stringify(u.pending)}`,
    );
}

/**
 * The early two moved to the new build: a transfer confirmed on every node, old and new, and the
 * new ones still at BASE with its parameters. Returns the new build's node_version.
 */
async function mixedVersionsGoOn(net: Testnet, H: number, sides: Sides, old: OldBuild): Promise<string> {
  const { early, late } = sides;
  const n0 = early[0]!;
  for (const n of early) {
    const u = await net.node(n).upgrade(NEW_VERSION);
    net.log(`${n}: ${u.from} -> ${u.to}, back in consensus at ${u.height} (the plan's height ${H})`);
  }
  // A transfer sent to a new node, confirmed on every node, old and new.
  const to = Wallet.random('mixed');
  await net.txs.confirm(net.txs.faucet(), { type: 'TRANSFER', to: to.address, amount: COIN }, n0);
  const top = await net.waitBlocks(2);
  assert.ok(
    top < H - 1,
    `the chain reached ${top} before the mixed-version checks (the plan at ${H}): raise planBlocks for this runtime`,
  );
  const mixed = await upgradesOf(net, net.names());
  for (const n of early) {
    const u = mixed.get(n)!;
    assert.equal(net.node(n).version(), NEW_VERSION, `${n}: the version it runs on`);
    assert.notEqual(u.node_version, old.oldNodeVersion, `${n}: node_version on the new build`);
    assert.ok(u.supported_protocol_versions.includes(TARGET), `${n}: the new build runs ${TARGET}`);
    assert.equal(u.protocol_version, BASE, `${n}: still protocol ${BASE} before the height`);
    assert.equal(
      u.params.default_commission_rate,
      old.genesisRate,
      `${n}: the new build keeps the old parameters before the height`,
    );
  }
  for (const n of late)
    assert.equal(mixed.get(n)!.node_version, old.oldNodeVersion, `${n}: still on the old build`);
  return mixed.get(n0)!.node_version;
}

/** At H the late two stop with exit code 3 and the halt's line; the early two wait at H-1, running. */
async function oldBuildHalts(net: Testnet, H: number, sides: Sides): Promise<void> {
  const { early, late } = sides;
  const now = await net.chain.maxHeight();
  await waitFor(
    `${late.join(' and ')} halted at the plan's height ${H}`,
    net.within(H - now + 5),
    async () => (await Promise.all(late.map((n) => net.node(n).state()))).every((s) => s === 'stopped'),
    { pollMs: 250 },
  );
  for (const n of late)
    assert.equal(await net.node(n).exitCode(), UPGRADE_HALT_EXIT_CODE, `${n}: its exit code at the halt`);
  await net.expect.log({ contains: haltLine(H), nodes: late });
  await net.expect.height({ atLeast: H - 1, nodes: early });
  // Half the power halted: no block at H until one of them is back.
  await net.expect.stalled({ seconds: 3, nodes: early });
  for (const n of early) {
    assert.equal(await net.node(n).height(), H - 1, `${n}: waits below the plan's height`);
    assert.equal(await net.node(n).state(), 'running', `${n}: the new build does not halt`);
  }
  await net.expect.noLog({ contains: 'UPGRADE NEEDED', nodes: early });
}

/** The halted ones moved to the new build one by one: the chain goes on past H; their logs keep the halt. */
async function haltedUpgradedOneByOne(net: Testnet, H: number, late: readonly string[]): Promise<void> {
  for (const n of late) {
    const u = await net.node(n).upgrade(NEW_VERSION);
    net.log(`${n}: ${u.from} -> ${u.to}, back in consensus at ${u.height}`);
  }
  // What a supervisor or an operator looks for after the swap, though the container (task) of
  // the halt is gone on docker and swarm (devnet's runtime/earlierRuns.ts): the line, the exit code.
  await net.expect.log({ contains: haltLine(H), nodes: late });
  await net.expect.log({
    contains: `exited with code ${UPGRADE_HALT_EXIT_CODE}; started again on ${NEW_VERSION}`,
    nodes: late,
  });
  await net.expect.height({ atLeast: H + 3 });
  await net.synced();
}

/**
 * On every node protocol TARGET, the plan applied at H, the migrated default commission; a
 * validator staked now gets it, one staked before keeps the genesis default.
 */
async function migrationApplied(
  net: Testnet,
  H: number,
  genesisRate: unknown,
  newNodeVersion: string,
): Promise<void> {
  const names = net.names();
  for (const [n, u] of await upgradesOf(net, names)) {
    assert.equal(u.protocol_version, TARGET, `${n}: protocol_version after the height`);
    assert.ok(
      u.applied.some((p) => p.target_version === TARGET && p.upgrade_height === H),
      `${n}: the plan applied at ${H}: ${JSON.stringify(u.applied)}`,
    );
    assert.equal(u.pending.length, 0, `${n}: nothing pending`);
    assert.equal(
      u.params.default_commission_rate,
      MIGRATED_DEFAULT_COMMISSION,
      `${n}: the default commission rate after the migration`,
    );
    assert.equal(u.node_version, newNodeVersion, `${n}: node_version`);
  }
  const after = await stakeWithoutRate(net, 'staked-after');
  assert.equal(after.rate, MIGRATED_DEFAULT_COMMISSION, `a validator staked at ${after.height} (after ${H})`);
  for (const n of names)
    assert.equal(
      (await net.chain.validatorOf(n, 'staked-before')).commission_rate,
      genesisRate,
      `${n}: the validator staked before the upgrade keeps its rate`,
    );
}

/** The rehearsal on one runtime, its own testnet, taken down whatever happens. */
export function upgradeRehearsal(runtime: RuntimeKind, o: RehearsalOptions): void {
  describe(`an upgrade rehearsed on the ${runtime} runtime`, { skip: o.skip }, () => {
    test(`${OLD_VERSION} -> ${NEW_VERSION}: a plan to ${TARGET}, mixed versions, the old halt at its height, upgraded, the migration applied`, {
      timeout: 600_000,
    }, async () => {
      const started = Date.now();
      const log = (line: string) => console.log(`# [upgrade ${runtime}] ${line}`);
      const net = await Testnet.start({
        manifest: {
          runtime,
          seed: `e2e-upgrade-${runtime}`,
          validators: [0, 1, 2, 3].map(() => ({ version: OLD_VERSION })),
          block_time: o.blockTime,
          // No epoch boundary in the run: the validators staked by the test stay INACTIVE (they
          // have no node), and a validator down for its upgrade is not jailed.
          epoch_length: 10_000,
          monitoring: false,
          ui: false,
        },
        name: `e2e-upgrade-${runtime}`,
        keepLogsDir: E2E_LOGS_DIR,
        log,
      });
      let failed = true;
      try {
        await rehearse(net, o);
        const r = await net.checkInvariants();
        assert.deepEqual(r.silent, [], 'every node answered for the invariants');
        assert.ok(
          r.lines.some((l) => l.startsWith('invariant: supply conserved: on ')),
          `supply checked: ${r.lines.join('; ')}`,
        );
        failed = false;
      } finally {
        await net.stop(failed ? { failed: true } : { invariants: false });
        log(`upgrade rehearsal: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    });
  });
}

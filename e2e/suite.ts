/**
 * The end-to-end suite for one runtime, on the testkit (@chain-devnet/devnet/testkit): a testnet
 * started from the suite's manifest (or the devnet E2E_DEVNET_HOME names, attached), every
 * scenario run against it as its own test, and at the end the testkit's invariants over the whole
 * run on every node, then the teardown, whatever happened (every node's log kept when anything
 * failed).
 *
 * One testnet per runtime, shared by the scenarios in the order below: those that break the chain
 * (crash, jailing, halt) come late and leave it healthy (every node synced, every validator
 * active) for the next. Staking adds a validator and takes it out again (UNSTAKE), so the halt
 * stops 2 of 4 validators. The halt is last of those: a chain that does not resume (as happened
 * before 37ead0e, e2e/README.md) takes no other scenario down with it. The Byzantine scenario
 * brings up a devnet of its own (one validator equivocates) and takes it down.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RuntimeKind, ready, Testnet, type TestnetBase } from '@chain-devnet/devnet/testkit';
import { E2E_LOGS_DIR, e2eManifest } from './manifest.js';
import { agreement } from './scenarios/agreement.js';
import { byzantine } from './scenarios/byzantine.js';
import { crash } from './scenarios/crash.js';
import { delegation } from './scenarios/delegation/delegation.js';
import { disks } from './scenarios/disks.js';
import { halt } from './scenarios/halt.js';
import { jailing } from './scenarios/jailing.js';
import { marketScenario } from './scenarios/market.js';
import { metrics } from './scenarios/metrics.js';
import { network } from './scenarios/network.js';
import { rotation } from './scenarios/rotation.js';
import type { Scenario } from './scenarios/scenario.js';
import { snapshots } from './scenarios/snapshots.js';
import { staking } from './scenarios/staking.js';
import { transfers } from './scenarios/transfers.js';

/** The scenarios written against TestnetBase, in the suite's order: they run on the simulation too (sim.test.ts). */
export const BASE_SCENARIOS: readonly Scenario<TestnetBase>[] = [
  agreement,
  rotation,
  transfers,
  metrics,
  snapshots,
  delegation,
  crash,
  jailing,
  staking,
  disks,
  network,
  halt,
];

/** Then the market (not simulated) and the Byzantine scenario, on a devnet of its own. */
export const SCENARIOS: readonly Scenario[] = [...BASE_SCENARIOS, marketScenario, byzantine];

export { e2eManifest };

export interface SuiteOptions {
  /** A reason to skip the whole suite (printed), or false. */
  readonly skip?: string | false;
  /** The machines the runtime spreads nodes over (swarm): the validators must be on all of them. */
  readonly machines?: number;
}

const SCENARIO_TIMEOUT_MS = 300_000;

export function e2eSuite(runtime: RuntimeKind, o: SuiteOptions = {}): void {
  const home = process.env.E2E_DEVNET_HOME;
  describe(`e2e on the ${runtime} runtime`, { skip: o.skip ?? false }, () => {
    let net: Testnet | null = null;
    let skipReason: string | null = null;
    const started = Date.now();
    const log = (line: string) => console.log(`# [${runtime}] ${line}`);

    before(
      async () => {
        if (home !== undefined && home !== '') {
          const attached = await Testnet.attach(home, { log });
          if (attached.runtime !== runtime) {
            skipReason = `E2E_DEVNET_HOME is a ${attached.runtime} devnet`;
            return;
          }
          net = attached;
          log(`using the devnet in ${net.home}: ${net.names().length} nodes`);
        } else
          net = await Testnet.start({
            manifest: e2eManifest(runtime),
            name: `e2e-${runtime}`,
            keepLogsDir: E2E_LOGS_DIR,
            log,
          });
      },
      { timeout: 600_000 },
    );

    after(
      async () => {
        // The invariants over the whole run (unless a scenario failed), the logs, the teardown.
        try {
          if (net !== null) await net.stop();
        } finally {
          log(`e2e suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
        }
      },
      { timeout: 600_000 },
    );

    const machines = o.machines;
    if (machines !== undefined)
      test(`0 spread: the validators run on all ${machines} machines`, async (t) => {
        if (skipReason !== null) return t.skip(skipReason);
        if (net === null) throw new Error('the testnet did not come up');
        const nodes = await net.status();
        const on = nodes.map((n) => `${n.name} on ${n.machine}`).join(', ');
        assert.equal(
          new Set(nodes.map((n) => n.machine)).size,
          machines,
          `validators on every machine: ${on}`,
        );
        net.log(`spread: ${on}`);
      });

    scenarioTests(
      SCENARIOS,
      () => net,
      () => skipReason,
      log,
    );
  });
}

/**
 * Each scenario as its own test on the shared testnet (`current()`), brought back to health
 * first (ready), its failure named by its step; `skipped()` a reason to skip them all.
 */
export function scenarioTests<N extends TestnetBase>(
  scenarios: readonly Scenario<N>[],
  current: () => N | null,
  skipped: () => string | null,
  log: (line: string) => void,
): void {
  for (const s of scenarios)
    test(`${s.id} ${s.title}`, { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
      const skipReason = skipped();
      if (skipReason !== null) return t.skip(skipReason);
      const n = current();
      if (n === null) throw new Error('the testnet did not come up');
      const t0 = Date.now();
      try {
        await n.step(`${s.id} ${s.title.split(':')[0]}`, async () => {
          await ready(n);
          await s.run(n);
        });
      } finally {
        log(`scenario ${s.id}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      }
    });
}

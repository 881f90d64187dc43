/**
 * The end-to-end suite for one runtime: brings up a devnet through the `devnet` command (or uses
 * the one E2E_DEVNET_HOME names), runs every scenario against it as its own test, and tears it
 * down whatever happened, keeping every node's log when a scenario failed.
 *
 * One devnet per runtime, shared by the scenarios in the order below: those that break the chain
 * (crash, jailing, halt) come late and leave it healthy (every node synced, every validator
 * active) for the next. Staking adds a validator and takes it out again (UNSTAKE), so the halt
 * stops 2 of 4 validators. The halt is last of those: a chain that does not resume (as happened
 * before 37ead0e, e2e/README.md) takes no other scenario down with it. The Byzantine scenario
 * brings up a devnet of its own (one validator equivocates) and takes it down.
 */
import { after, before, describe, test } from 'node:test';
import { Ctx } from './lib/context.js';
import { Devnet, type RuntimeKind } from './lib/devnet.js';
import { agreement } from './scenarios/agreement.js';
import { byzantine } from './scenarios/byzantine.js';
import { crash } from './scenarios/crash.js';
import { delegation } from './scenarios/delegation.js';
import { halt } from './scenarios/halt.js';
import { jailing } from './scenarios/jailing.js';
import { market } from './scenarios/market.js';
import { metrics } from './scenarios/metrics.js';
import { rotation } from './scenarios/rotation.js';
import type { Scenario } from './scenarios/scenario.js';
import { snapshots } from './scenarios/snapshots.js';
import { staking } from './scenarios/staking.js';
import { transfers } from './scenarios/transfers.js';

export const SCENARIOS: readonly Scenario[] = [
  agreement,
  rotation,
  transfers,
  metrics,
  snapshots,
  delegation,
  crash,
  jailing,
  staking,
  halt,
  market,
  byzantine,
];

export interface SuiteOptions {
  /** A reason to skip the whole suite (printed), or false. */
  readonly skip?: string | false;
}

const SCENARIO_TIMEOUT_MS = 300_000;

export function e2eSuite(runtime: RuntimeKind, o: SuiteOptions = {}): void {
  const home = process.env.E2E_DEVNET_HOME;
  describe(`e2e on the ${runtime} runtime`, { skip: o.skip ?? false }, () => {
    let dn: Devnet | null = null;
    let ctx: Ctx | null = null;
    let skipReason: string | null = null;
    const started = Date.now();

    before(
      async () => {
        if (home !== undefined && home !== '') {
          const rt = await Devnet.runtimeOf(home);
          if (rt !== runtime) {
            skipReason = `E2E_DEVNET_HOME is a ${rt} devnet`;
            return;
          }
          dn = await Devnet.attach(home);
        } else {
          dn = await Devnet.create(runtime);
          try {
            await dn.up();
          } catch (e) {
            dn.failed = true;
            throw e;
          }
        }
        ctx = new Ctx(dn);
        ctx.log(
          `${home ? `using the devnet in ${dn.home}` : 'devnet up'}: ${dn.nodes.length} nodes, ` +
            `${dn.params.blockTimeMs} ms blocks, epochs of ${dn.params.epochLength}, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      },
      { timeout: 600_000 },
    );

    after(
      async () => {
        if (dn !== null) await dn.tearDown();
        console.log(`# [${runtime}] e2e suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      },
      { timeout: 600_000 },
    );

    for (const s of SCENARIOS)
      test(`${s.id} ${s.title}`, { timeout: SCENARIO_TIMEOUT_MS }, async (t) => {
        if (skipReason !== null) return t.skip(skipReason);
        if (ctx === null || dn === null) throw new Error('the devnet did not come up');
        const t0 = Date.now();
        try {
          await ctx.ready();
          await s.run(ctx);
        } catch (e) {
          dn.failed = true;
          throw e;
        } finally {
          ctx.log(`scenario ${s.id}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        }
      });
  });
}

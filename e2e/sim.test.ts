/**
 * The end-to-end scenarios on the simulation (SimTestnet): agreement, rotation, transfers,
 * metrics, snapshots, delegation, a crash under load, jailing, staking (a node added), disks,
 * network conditions, the halt and a Byzantine validator (on a simulation of its own), each the
 * same code as on the devnet's runtimes (suite.ts), on the suite's manifest without the market,
 * in virtual time; and the run's fingerprint, which the same seed gives again
 * (devnet/tests/testkit/simTestnet.test.ts runs one twice).
 */
import { after, before, describe, test } from 'node:test';
import { SimTestnet, withSimTestnet } from '@chain-devnet/devnet/testkit';
import { E2E_LOGS_DIR, e2eManifest } from './manifest.js';
import { byzantine, byzantineChecks, byzantineOptions } from './scenarios/byzantine.js';
import { BASE_SCENARIOS, scenarioTests } from './suite.js';

describe('e2e on the simulation', () => {
  let net: SimTestnet | null = null;
  const started = Date.now();
  const log = (line: string) => console.log(`# [sim] ${line}`);
  before(async () => {
    net = await SimTestnet.start({
      manifest: e2eManifest('sim'),
      name: 'e2e-sim',
      keepLogsDir: E2E_LOGS_DIR,
      log,
    });
  });
  after(async () => {
    try {
      if (net !== null) await net.stop();
    } finally {
      log(`e2e suite on the simulation: ${((Date.now() - started) / 1000).toFixed(1)} s of wall time`);
    }
  });
  scenarioTests(
    BASE_SCENARIOS,
    () => net,
    () => null,
    log,
  );
});

describe('the Byzantine scenario on the simulation', () => {
  const log = (line: string) => console.log(`# [sim] ${line}`);
  test(`${byzantine.id} ${byzantine.title}`, () =>
    withSimTestnet(byzantineOptions('sim', log), byzantineChecks));
});

/** The suite's devnet, shared by its scenarios (suite.ts) and the base of a scenario's own. */
import type { Manifest, TestRuntime } from '@chain-devnet/devnet/testkit';

/**
 * The suite's devnet: 4 validators, 400 ms blocks, 12-block epochs, short delays, the task market
 * (not on the simulation, which has no market yet: sim.test.ts).
 */
export function e2eManifest(runtime: TestRuntime): Manifest {
  if (runtime === 'sim') {
    const { market: _, runtime: __, ...simulated } = e2eManifest('process');
    return { ...simulated, seed: 'e2e-sim' };
  }
  return {
    validators: 4,
    runtime,
    seed: `e2e-${runtime}`,
    block_time: '400ms',
    epoch_length: 12,
    monitoring: false,
    // The suite drives nodes through the testkit; the panel has its own tests (devnet/tests/ui).
    ui: false,
    // The task market and its sample worker (scenario 12, docs/MARKET.md).
    market: true,
    params: { min_uptime: 0.5, activation_delay: 8, unbonding_blocks: 8, snapshot_interval: 5 },
  };
}

/** Where a failed run keeps every node's log: E2E_LOGS_DIR, else ./e2e-logs. */
export const E2E_LOGS_DIR = process.env.E2E_LOGS_DIR ?? 'e2e-logs';

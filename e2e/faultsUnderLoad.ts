/**
 * Faults under load (issue 14), written as a scenario file and run by `devnet test` on one
 * runtime: e2e/scenarios/faults-under-load.yaml (a kill, a pause, a 2-2 partition healed and a
 * restart under a continuous load; then every invariant, and every transaction confirmed during
 * the faults on every node). One test file per runtime (faultsUnderLoad.process.test.ts,
 * faultsUnderLoad.docker.test.ts), so that the process one can run while the engine is busy.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { devnetCli } from '@chain-devnet/devnet';

const SCENARIO = fileURLToPath(new URL('../scenarios/faults-under-load.yaml', import.meta.url));
const LOGS = process.env.E2E_LOGS_DIR ?? 'e2e-logs';

export function faultsUnderLoad(runtime: 'process' | 'docker', skip: string | false = false): void {
  describe('faults under load, a scenario file run by devnet test', () => {
    test(`on the ${runtime} runtime`, { skip, timeout: 600_000 }, async () => {
      await mkdir(LOGS, { recursive: true });
      const junit = join(LOGS, `faults-under-load-${runtime}.xml`);
      const r = await devnetCli(
        ['test', SCENARIO, '--runtime', runtime, '--junit', junit, '--logs-dir', LOGS],
        {
          timeoutMs: 580_000,
        },
      );
      for (const line of r.stdout.trimEnd().split('\n')) console.log(`# [${runtime}] ${line}`);
      assert.equal(r.code, 0, `devnet test exited ${r.code}: ${r.stderr}`);
      // The invariants ran, and the ledger check covered what the load confirmed during the faults.
      const ledger = /invariant: no confirmed transaction lost: (\d+) transactions on every node/.exec(
        r.stdout,
      );
      assert.ok(
        ledger !== null && Number(ledger[1]) >= 20,
        `the load's confirmed transactions checked: ${ledger?.[1]}`,
      );
      assert.match(
        r.stdout,
        /✔ steps\[9\] partition \[validator-0, validator-1\] \[validator-2, validator-3\]/,
      );
      assert.match(r.stdout, /✔ invariants/);
    });
  });
}

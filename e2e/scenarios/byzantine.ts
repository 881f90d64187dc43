/**
 * 11 A Byzantine validator: a testnet of its own whose manifest marks one of four validators
 * `byzantine: equivocate` (test only): it signs two versions of every proposal and vote and sends
 * each to half its peers. Every node finalizes the same block at every height, the chain goes
 * on, and every honest node reports the equivocation (GET /evidence, both signatures valid, and
 * chain_equivocations_total). The testnet is taken down whatever happens; at its stop the
 * invariants hold with the liar declared Byzantine (its equivocations allowed, nobody else's).
 * The same checks run on the simulation (sim.test.ts), on a SimTestnet of the same manifest.
 */
import assert from 'node:assert/strict';
import {
  type SimStartOptions,
  type StartOptions,
  type TestnetBase,
  type TestRuntime,
  withTestnet,
} from '@chain-devnet/devnet/testkit';
import { type Equivocation, isProvenEquivocation } from '@chain-devnet/node/chain';
import { E2E_LOGS_DIR, e2eManifest } from '../manifest.js';
import type { Scenario } from './scenario.js';

const BYZANTINE = 'validator-3';

/** The testnet of its own: four validators, the last one equivocating. */
export function byzantineOptions(
  runtime: TestRuntime,
  log: (line: string) => void,
): StartOptions & SimStartOptions {
  return {
    // Long epochs: the liar's missed slots do not get it jailed (and silenced) meanwhile.
    manifest: {
      ...e2eManifest(runtime),
      validators: [{}, {}, {}, { name: BYZANTINE, byzantine: 'equivocate' as const }],
      seed: `e2e-byzantine-${runtime}`,
      epoch_length: 1000,
      market: false,
    },
    name: `e2e-byzantine-${runtime}`,
    keepLogsDir: E2E_LOGS_DIR,
    log: (line: string) => log(`byzantine: ${line}`),
    invariants: { byzantine: [BYZANTINE] },
  };
}

/** Every node agrees at every height and goes on; every honest node holds proven evidence against the liar. */
export async function byzantineChecks(net: TestnetBase): Promise<void> {
  const { chain } = net;
  const names = net.names();
  const honest = names.filter((n) => n !== BYZANTINE);
  net.log(`${names.join(', ')}; ${BYZANTINE} equivocates`);
  const liar = (await chain.validatorOf(honest[0]!, BYZANTINE)).address;
  // 16 heights: four of them are the liar's round-0 slots.
  const target = 16;
  await chain.waitHeight(target, names, target + 8);
  await chain.assertAgreement(names, 1, target);
  for (const n of honest) {
    const { evidence } = await net.node(n).rpc.get<{ evidence: Equivocation[] }>('/evidence');
    assert.ok(evidence.length > 0, `${n} reports the equivocation`);
    for (const e of evidence) {
      assert.equal(e.validator, liar, `${n}: ${e.kind} at ${e.height}/${e.round} is the liar's`);
      assert.ok(isProvenEquivocation(e), `${n}: ${e.kind} at ${e.height}/${e.round}: both signatures check`);
    }
    const kinds = new Set(evidence.map((e) => e.kind));
    assert.deepEqual([...kinds].sort(), ['precommit', 'prevote', 'proposal'], `${n}: the kinds it saw`);
    await net.expect.metric({
      node: n,
      metric: 'chain_equivocations_total',
      labels: { validator: liar },
      op: '>=',
      value: evidence.length,
    });
    net.log(`${n}: ${evidence.length} equivocations by ${BYZANTINE}`);
  }
}

export const byzantine: Scenario = {
  id: 11,
  title: 'a Byzantine validator that equivocates: every node agrees at every height, goes on, and reports it',
  async run(shared) {
    await withTestnet(
      byzantineOptions(shared.runtime, (line) => shared.log(line)),
      byzantineChecks,
    );
  },
};

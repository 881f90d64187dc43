/**
 * The scenario steps of the chain's time (docs/SCENARIOS.md, "Time"): `chain` (devnet chain:
 * `pause`, `resume`, `{mine: N}`, `{until_height: H}`, `{until_epoch: E}`, `{block_time: D}`,
 * `{time: +D}`, `{at: UNIX}`) and `clock` (devnet clock NODE --skew). Their schema, their checks
 * before anything starts, and their run as testkit calls (net.time), here together. Each gives the
 * height the chain is at after it (a mine: the last height it made) for the steps after it. The
 * forms are the devnet's own (operations/chainRequest.ts: the panel takes the same).
 */
import { parseSignedDuration } from '@chain-devnet/kit/values';
import {
  CHAIN_REQUEST_SCHEMA,
  type ChainRequest,
  CLOCK_REQUEST_SCHEMA,
  type ClockRequest,
  chainRequestProblems,
  clockSkewProblems,
  runChainRequest,
} from '../operations/chainRequest.js';
import type { TestnetBase } from '../testkit/testnet/base.js';
import { type KnownNetwork, unknownName } from './network.js';

export type ChainStep = ChainRequest;

export interface TimeSteps {
  readonly chain?: ChainStep;
  readonly clock?: ClockRequest;
}

export const TIME_STEPS_SCHEMA = { chain: CHAIN_REQUEST_SCHEMA, clock: CLOCK_REQUEST_SCHEMA } as const;

/** The problems of a time step the schema accepted, each naming its field. */
export function timeStepProblems(
  net: KnownNetwork,
  i: number,
  kind: keyof TimeSteps,
  step: TimeSteps,
): string[] {
  const path = `steps[${i}].${kind}`;
  if (kind === 'chain') return chainRequestProblems(step.chain!, path);
  return [
    ...unknownName(net, `${path}.node`, step.clock!.node, ['node']),
    ...clockSkewProblems(step.clock!, path),
  ];
}

/** Runs a time step as testkit calls; the height the chain is at after it. */
export async function timeStep(
  t: Pick<TestnetBase, 'time'>,
  kind: keyof TimeSteps,
  step: TimeSteps,
): Promise<number | null> {
  if (kind === 'chain') return runChainRequest(t.time, step.chain!);
  await t.time.skew(step.clock!.node, parseSignedDuration(step.clock!.skew)!);
  return null;
}

/**
 * TEST ONLY: the priv-validator's fail points (`--fail-point`), where the node kills itself for
 * the crash tests; honoured only with --fault-injection.
 */

import type { Logger } from '@chain-devnet/kit/log';
import type { PrivValidatorOptions } from '../home/privValidator.js';
import { StartupError } from '../util/startupError.js';
import { killSelf } from './kill.js';

/**
 * lock-recorded: right after its first new lock (and the lock's block) is on disk;
 * proposal-recorded: right after its first proposal is on disk, before it is sent.
 */
export const FAIL_POINTS = ['lock-recorded', 'proposal-recorded'] as const;
export type FailPoint = (typeof FAIL_POINTS)[number];

/** The priv-validator's options for `failPoint` (null: none). */
export function failPointOptions(
  failPoint: FailPoint | null,
  faultInjection: boolean,
  logger: Logger,
): PrivValidatorOptions {
  if (failPoint === null) return {};
  if (!faultInjection)
    throw new StartupError(`--fail-point ${failPoint} is fault injection: it needs --fault-injection`);
  logger.warn('FAIL POINT ARMED: this node kills itself (SIGKILL) at it', { fail_point: failPoint });
  return failPoint === 'lock-recorded'
    ? { afterLockRecorded: killSelf }
    : { afterProposalRecorded: killSelf };
}

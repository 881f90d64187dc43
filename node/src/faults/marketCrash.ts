/**
 * TEST ONLY: the task market's crash switch. With the environment variable
 * CHAIN_MARKET_CRASH_AFTER_SENDS set (honoured only on a devnet chain: market/process.ts), the
 * market SIGKILLs itself right after that many payouts were received by the node: a crash in the
 * middle of paying (tests/system/marketCrash.test.ts).
 */
import type { Logger } from '@chain-devnet/kit/log';
import { killSelf } from './kill.js';

export const MARKET_CRASH_ENV = 'CHAIN_MARKET_CRASH_AFTER_SENDS';

/** The switch as the environment sets it: null when unset or empty. */
export function marketCrashAfterSends(env: NodeJS.ProcessEnv): number | null {
  const crash = env[MARKET_CRASH_ENV];
  return crash === undefined || crash === '' ? null : Number(crash);
}

/** Kills the market once `sends` payouts reached `crashAfterSends` (null: never). */
export function crashIfDue(crashAfterSends: number | null, sends: number, logger: Logger): void {
  if (crashAfterSends === null || sends < crashAfterSends) return;
  logger.warn('test crash point: SIGKILL after sending payouts', { sends });
  killSelf();
}

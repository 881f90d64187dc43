/**
 * The node's clocks and, TEST ONLY, the chain control over them (faults/chainControl.ts, behind
 * --fault-injection): the node's own clock (the machine's, plus a skew under the control), the
 * chain clock (the node's, plus the chain-time offset: block timestamps, their check, mempool
 * ages) and the pace of heights the consensus driver follows. Without --fault-injection both clocks
 * are the machine's and there is no pace: nothing of the control is reachable.
 */
import type { Logger } from '@chain-devnet/kit/log';
import type { ConsensusDriver } from '../consensus/driver/driver.js';
import { type ChainControlInForce, chainControl } from '../faults/chainControl.js';
import { chainControlToJson } from '../faults/chainControlFile.js';
import type { TestOnlyRoutes } from '../rpc/handlers/netProbe.js';
import type { ChainService } from '../service/chainService.js';
import type { CloserStack } from './closers.js';
import type { NodeConfig } from './config.js';

export interface TimeControl {
  /** null without --fault-injection. */
  readonly control: ChainControlInForce | null;
  /** The node's own clock. */
  readonly clock: () => number;
  /** Chain time as this node sees it. */
  readonly chainClock: () => number;
}

/** The clocks over the machine's `now`, the control followed from the home's file when fault injection is on. */
export async function openTimeControl(
  config: NodeConfig,
  now: () => number,
  logger: Logger,
  parts: CloserStack,
): Promise<TimeControl> {
  const { control, stop } = await chainControl(
    config.home,
    config.faultInjection,
    now,
    logger.child({ part: 'control' }),
  );
  parts.defer('chain control', stop);
  if (control === null) return { control, clock: now, chainClock: now };
  return { control, clock: control.clock, chainClock: control.chainClock };
}

/**
 * The control's test-only route (GET /chain/control), and a mempool cleanup at once when chain
 * time jumps forward (a jump past a transaction's TTL expires it then, not up to 30 s later).
 */
export function wireTimeControl(
  time: TimeControl,
  service: ChainService,
  driver: ConsensusDriver,
  testOnly: TestOnlyRoutes,
  logger: Logger,
): void {
  const control = time.control;
  if (control === null) return;
  testOnly.chainControl = () => ({
    control: chainControlToJson(control.control),
    height: service.state.height,
    held: driver.isHeld,
    clock_ms: time.clock(),
    chain_time_ms: time.chainClock(),
  });
  control.onControl((before, after) => {
    if (after.timeOffsetMs > before.timeOffsetMs)
      service.expire().catch((e: unknown) => logger.error('mempool cleanup failed', { error: e as Error }));
  });
}

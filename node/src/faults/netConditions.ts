/**
 * TEST ONLY (fault injection): <home>/net_conditions.json says how this node's p2p links are
 * shaped and which peers' messages it does not receive (netConditionsFile.ts has its form; the
 * devnet writes it). With --fault-injection the node's links pass through the shaping layer
 * (p2p/shaping/), and the file is followed as blocked_peers.json is (a stat poll off the
 * JavaScript thread): read at start, before the first connection, and on every change; a file
 * that is not valid is refused with a warning naming what is wrong, and the conditions in force
 * stay. Without --fault-injection the layer is not in the path at all, and a file present is
 * noted once and ignored.
 */

import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import { conditionsLogFields, NET_CONDITIONS_SET, NO_CONDITIONS } from '../p2p/shaping/conditions.js';
import { LinkShaping } from '../p2p/shaping/linkShaping.js';
import { realTicker } from '../util/ticker.js';
import { followFaultFile, noteIgnoredFaultFile } from './faultFile.js';
import { NET_CONDITIONS_FILE, parseNetConditions } from './netConditionsFile.js';

/** The shaping of a node's links (null without fault injection) and what stops following the file. */
export interface NetConditionsFault {
  readonly shaping: LinkShaping | null;
  readonly stop: () => void;
}

/** Follows `path` into `shaping` (faultFile.ts); resolves once the file as it is now has been applied. */
export async function watchNetConditions(
  path: string,
  shaping: LinkShaping,
  logger: Logger,
): Promise<() => void> {
  const followed = followFaultFile(
    path,
    (text) => {
      if (text === null) {
        if (shaping.current() !== NO_CONDITIONS) logger.info('net conditions cleared (no file)', { path });
        shaping.set(NO_CONDITIONS);
        return;
      }
      const parsed = parseNetConditions(text);
      if (!parsed.ok) {
        logger.warn(`net_conditions.json refused, the conditions in force stay: ${parsed.error}`, { path });
        return;
      }
      shaping.set(parsed.conditions);
      logger.info(
        NET_CONDITIONS_SET,
        conditionsLogFields(parsed.conditions.links.length, parsed.conditions.deafTo.length),
      );
    },
    logger,
  );
  await followed.ready;
  return followed.stop;
}

/** The shaping layer and its file, with --fault-injection; without, a file present is noted once. */
export async function netConditionsFault(
  home: string,
  faultInjection: boolean,
  logger: Logger,
): Promise<NetConditionsFault> {
  const path = join(home, NET_CONDITIONS_FILE);
  if (!faultInjection) {
    await noteIgnoredFaultFile(path, logger);
    return { shaping: null, stop: () => undefined };
  }
  // Its own monotonic clock: the node's clock may be skewed or stepped by a test; links are not.
  const shaping = new LinkShaping(realTicker(() => performance.now(), { unref: true }));
  return { shaping, stop: await watchNetConditions(path, shaping, logger) };
}

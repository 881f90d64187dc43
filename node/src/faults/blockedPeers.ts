/**
 * TEST ONLY (fault injection): <home>/blocked_peers.json says which peers this node refuses to
 * talk to (the devnet's disconnect/connect/partition and the partition tests write it), in one of
 * two forms:
 *   ["<peer id>", …]               refuse these peers (the first form; still valid)
 *   {"allow": ["<peer id>", …]}    refuse every peer but these ({"allow": []}: every peer)
 * Honoured only when the node runs with --fault-injection: a file left behind in a home must not
 * silently cut off a node started by hand. The file's forms are read and written by
 * blockedPeersFile.ts (no libp2p there, so the devnet and the testnet export can use them).
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { P2PNetwork } from '../p2p/network.js';
import type { Logger } from '../util/logger.js';
import { BLOCKED_PEERS_FILE, parseBlockedPeers } from './blockedPeersFile.js';

/** Polled twice a second; a missing file means nobody is blocked. */
export function watchBlockedPeers(path: string, network: P2PNetwork, logger: Logger): NodeJS.Timeout {
  let last = '';
  return setInterval(() => {
    readFile(path, 'utf8')
      .catch(() => '[]')
      .then(async (text) => {
        if (text === last) return;
        last = text;
        const rule = parseBlockedPeers(text);
        if (rule === null) {
          logger.warn(
            'blocked_peers.json must be a JSON array of peer ids or {"allow": [peer ids]}; ignored',
            { path },
          );
          return;
        }
        await network.setRefused(rule);
      })
      .catch((e: unknown) => logger.error('blocked peers update failed', { error: e as Error }));
  }, 500);
}

/** Without --fault-injection: says once, at start, that a blocked-peers file is there and ignored. */
export async function noteIgnoredBlockedPeers(path: string, logger: Logger): Promise<void> {
  const present = await access(path).then(
    () => true,
    () => false,
  );
  if (present)
    logger.info(
      'blocked_peers.json is present but fault injection is off: ignored (--fault-injection honours it)',
      {
        path,
      },
    );
}

/**
 * The blocked-peers fault of a running network: with --fault-injection, <home>/blocked_peers.json
 * is followed (the function returned stops that); without, a file present is noted once, ignored.
 */
export async function blockedPeersFault(
  home: string,
  network: P2PNetwork,
  faultInjection: boolean,
  logger: Logger,
): Promise<() => void> {
  const path = join(home, BLOCKED_PEERS_FILE);
  if (!faultInjection) {
    await noteIgnoredBlockedPeers(path, logger);
    return () => {};
  }
  const timer = watchBlockedPeers(path, network, logger);
  return () => clearInterval(timer);
}

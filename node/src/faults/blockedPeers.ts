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
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import type { P2PNetwork } from '../p2p/network.js';
import { BLOCKED_PEERS_FILE, parseBlockedPeers } from './blockedPeersFile.js';
import { followFaultFile, noteIgnoredFaultFile } from './faultFile.js';

/**
 * Follows `path` (faultFile.ts): read at start and whenever it changes (created, written,
 * replaced, removed); a missing file means nobody is blocked. Returns what stops following it.
 */
export function watchBlockedPeers(
  path: string,
  network: Pick<P2PNetwork, 'setRefused'>,
  logger: Logger,
): () => void {
  return followFaultFile(
    path,
    async (text) => {
      const rule = parseBlockedPeers(text ?? '[]');
      if (rule === null) {
        logger.warn('blocked_peers.json must be a JSON array of peer ids or {"allow": [peer ids]}; ignored', {
          path,
        });
        return;
      }
      await network.setRefused(rule);
    },
    logger,
  ).stop;
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
    await noteIgnoredFaultFile(path, logger);
    return () => {};
  }
  return watchBlockedPeers(path, network, logger);
}

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
import { unwatchFile, watchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@chain-devnet/kit/log';
import type { P2PNetwork } from '../p2p/network.js';
import { BLOCKED_PEERS_FILE, parseBlockedPeers } from './blockedPeersFile.js';
import { noteIgnoredFaultFile } from './ignoredFile.js';

/** How often the file's metadata is looked at (libuv's stat poll, off the JavaScript thread). */
const POLL_MS = 500;

/**
 * Follows `path`: read at start and whenever its metadata changes (created, written, replaced,
 * removed); a missing file means nobody is blocked. Every node of a devnet runs with
 * --fault-injection, and each used to read the file itself twice a second: with no file there,
 * each read made and threw an ENOENT error in JavaScript, 3-4 ms of CPU a second for 21 nodes
 * against 0.3 with fs.watchFile, which stats it in libuv's thread pool and wakes the node only on
 * a change (docs/BENCHMARKS.md, "The transport's floor"). Returns what stops following it.
 */
export function watchBlockedPeers(
  path: string,
  network: Pick<P2PNetwork, 'setRefused'>,
  logger: Logger,
): () => void {
  let last = '';
  // One read at a time, in the order of the changes: the last one read is the rule in force.
  let reading: Promise<void> = Promise.resolve();
  const reread = () => {
    reading = reading
      .then(() => readFile(path, 'utf8').catch(() => '[]'))
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
  };
  watchFile(path, { interval: POLL_MS, persistent: false }, reread);
  reread();
  return () => unwatchFile(path, reread);
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

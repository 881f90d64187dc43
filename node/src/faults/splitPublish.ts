/**
 * TEST ONLY (chain-node --byzantine): the split publish of a Byzantine validator. Each version of
 * a message goes to its share of the topic's subscribed peers (sorted by peer id), so that
 * different peers receive different messages first; each peer validates and forwards its version
 * like any message. Gossipsub has no "publish to these peers": the frames are written on its
 * per-peer streams (internals/libraryInternals.ts). Armed on the network by the composition root only
 * with --byzantine (faults/byzantine.ts).
 */

import type { Logger } from '@chain-devnet/kit/log';
import type { GossipFrames } from '../internals/libraryInternals.js';
import type { SplitPublish } from '../p2p/network.js';

export function splitPublisher(logger: Logger): (frames: GossipFrames) => SplitPublish {
  return (frames) => (topic, versions) => {
    const peers = frames.subscribers(topic).sort();
    peers.forEach((peer, i) => {
      const data = versions[Math.floor((i * versions.length) / peers.length)]!;
      try {
        frames.pushFrame(peer, topic, data);
      } catch (e) {
        logger.debug('split publish skipped a peer', { peer, error: (e as Error).message });
      }
    });
  };
}

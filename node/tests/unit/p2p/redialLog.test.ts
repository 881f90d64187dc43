/**
 * What a failed redial of a bootstrap peer says (p2p/bootstrapRedial.ts): the first failure since
 * the peer was last reached at info, with its reason, so that a node left without peers says so at
 * the default level; the next ones at debug (a pass every 10–15 s would fill the log).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { multiaddr } from '@multiformats/multiaddr';
import { BootstrapRedial } from '../../../src/p2p/bootstrapRedial.js';

const PEER = {
  addr: multiaddr('/ip4/127.0.0.1/tcp/9/p2p/12D3KooWEmFKNnk2jATeR97ME2sYYt46dEmTsFmakqYtXMkkq8CL'),
  id: '12D3KooWEmFKNnk2jATeR97ME2sYYt46dEmTsFmakqYtXMkkq8CL',
};

describe('a failed redial of a bootstrap peer', () => {
  it('is said at info the first time since the peer was reached, then at debug, and at info again after it was reached', async () => {
    const logger = memoryLogger();
    const outcomes = [false, false, true, false];
    const redial = new BootstrapRedial([PEER], {
      dial: async () => {
        if (!outcomes.shift()) throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      },
      connected: () => [],
      excluded: () => false,
      logger,
    });
    for (let i = 0; i < 4; i++) await redial.dial(PEER);
    assert.deepEqual(
      logger.lines.map((l) => [l.level, l.msg, l.error]),
      [
        ['info', 'redial failed', 'connect ECONNREFUSED 127.0.0.1:9'],
        ['debug', 'redial failed', 'connect ECONNREFUSED 127.0.0.1:9'],
        ['debug', 'redialled a bootstrap peer', undefined],
        ['info', 'redial failed', 'connect ECONNREFUSED 127.0.0.1:9'],
      ],
    );
  });
});

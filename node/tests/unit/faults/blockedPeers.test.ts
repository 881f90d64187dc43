/**
 * The blocked-peers file followed by a node with --fault-injection (faults/blockedPeers.ts): the
 * rule is applied at start, after every change of the file (written, replaced, a bad form left
 * aside, removed) and no longer once the watch is stopped. The network is a recorder of the rules
 * it is given: the partition tests (system and e2e) check that real peers honour them.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { pause, waitFor } from '@chain-devnet/kit/wait';
import { watchBlockedPeers } from '../../../src/faults/blockedPeers.js';
import { BLOCKED_PEERS_FILE } from '../../../src/faults/blockedPeersFile.js';
import type { PeerRefusal } from '../../../src/p2p/peerRefusal.js';

describe('blocked_peers.json followed by a node', () => {
  let dir: string;
  let path: string;
  const rules: PeerRefusal[] = [];
  const logger = memoryLogger();
  let stop: () => void = () => {};
  const network = {
    setRefused: async (rule: PeerRefusal) => {
      rules.push(rule);
    },
  };
  const ruleBecomes = (what: string, expected: PeerRefusal) =>
    waitFor(`the rule ${what}`, 5_000, async () => {
      const last = rules.at(-1);
      return last !== undefined && JSON.stringify(last) === JSON.stringify(expected);
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blocked-peers-'));
    path = join(dir, BLOCKED_PEERS_FILE);
  });
  after(async () => {
    stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies the file at start, after each change and after its removal; a bad form is logged and left aside', async () => {
    await writeFile(path, '["peer-a"]');
    stop = watchBlockedPeers(path, network, logger);
    await ruleBecomes('read at start', { allowOnly: false, peers: ['peer-a'] });

    await writeFile(path, '{"allow":["peer-b"]}');
    await ruleBecomes('after a write', { allowOnly: true, peers: ['peer-b'] });

    // Replaced by rename, as an atomic writer does (a new inode of the same size).
    await writeFile(`${path}.tmp`, '{"allow":["peer-c"]}');
    await rename(`${path}.tmp`, path);
    await ruleBecomes('after a rename over it', { allowOnly: true, peers: ['peer-c'] });

    const applied = rules.length;
    await writeFile(path, '{"deny": 1}');
    await waitFor('the bad form logged', 5_000, async () =>
      logger.lines.some((l) => String(l.msg).includes('blocked_peers.json must be')),
    );
    assert.equal(rules.length, applied, 'a bad form changes no rule');

    await rm(path);
    await ruleBecomes('after the removal: nobody blocked', { allowOnly: false, peers: [] });
  });

  it('stops following the file once stopped', async () => {
    stop();
    const applied = rules.length;
    await writeFile(path, '["peer-d"]');
    await pause(1_500);
    assert.equal(rules.length, applied);
  });
});

/**
 * A joiner of one devnet faced with a sister devnet (issue 39, part 2), with real chain-node
 * processes: three validators of the seed `cluster-tests` run chain B, its snapshots every 20
 * blocks; a joiner is given chain A's genesis, the same document but for its genesis time (the
 * same seed, keys and chain id: what two devnets of one seed are). It is bootstrapped to B's
 * validators and to a stranger that relays B's genuine, validly signed answers (block sync and
 * snapshots) and announces no genesis. B's validators are refused at the handshake (another
 * genesis); the relayed snapshot is refused because its state names B's genesis, not A's; the
 * joiner restores nothing, never commits a block of B, and stays at A's genesis.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freeBasePort } from '@chain-devnet/kit/ports';
import type { Program } from '@chain-devnet/kit/process';
import { pause, scaledMs, waitFor } from '@chain-devnet/kit/wait';
import { type GenesisJson, loadGenesis } from '../../src/chain/index.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import type { P2PNetwork } from '../../src/p2p/network.js';
import { Cluster } from '../support/cluster.js';
import { serveRelay } from '../support/rogueSnapshots.js';
import { addressOf, startNetworkConnectedTo } from '../support/syncPeers.js';

const BLOCK_MS = 100;
const INTERVAL = 20;

const genesisHashOf = (json: GenesisJson) => {
  const loaded = loadGenesis(json);
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.genesis.hash;
};

describe('a joiner of a devnet among the nodes of its sister devnet (same seed, another genesis time)', {
  timeout: scaledMs(300_000),
}, () => {
  let sister: Cluster;
  let relay: P2PNetwork | null = null;
  let joiner: Program | null = null;

  before(async () => {
    sister = await Cluster.create(3, BLOCK_MS, { snapshot_interval: INTERVAL, epoch_length: 1000 });
    sister.startAll();
    await sister.waitForHeight(2 * INTERVAL + 5, [0], 120_000);
  });
  after(async () => {
    await joiner?.stop('SIGTERM', 3000);
    await relay?.stop();
    await sister.stopAll();
  });

  it("refuses the sister's validators at the handshake and its relayed snapshot by the genesis its state names", async () => {
    const sisterGenesis = JSON.parse(
      await readFile(join(sister.nodes[0]!.home, 'genesis.json'), 'utf8'),
    ) as GenesisJson;
    const ours: GenesisJson = { ...sisterGenesis, genesis_time: sisterGenesis.genesis_time - 3600 };
    const [oursHash, sisterHash] = [genesisHashOf(ours), genesisHashOf(sisterGenesis)];
    assert.equal(ours.protocol_version, '1.2.0', 'the generator starts at the newest protocol version');

    const base = await freeBasePort((b) => [b, b + 1, b + 2]);
    relay = await startNetworkConnectedTo(
      { name: 'sister-relay', port: base + 2, bootstrap: [sister.nodes[0]!.multiaddr] },
      sister.nodes[0]!.peerId,
    );
    const r = relay;
    const chunkRequests: number[] = [];
    await serveRelay(relay, sister.nodes[0]!.peerId, chunkRequests);

    joiner = await sister.startJoiner({
      port: base,
      p2pPort: base + 1,
      bootstrap: [addressOf(relay, base + 2), ...sister.nodes.map((n) => n.multiaddr)],
      genesis: ours,
    });
    const j = joiner;
    const lines = () => j.lines().map((l) => JSON.parse(l) as Record<string, unknown>);

    // The sister's validators: refused at the handshake when identify names the other genesis. The
    // refusal is mutual and whichever side reads the other's identify first hangs up, so the other
    // may never log its own: each sister validator is refused by the joiner or refuses the joiner.
    // The waits below are for a process starting and dialing (no height of ours measures them):
    // stretched on a busy runner.
    const refusedBy = (logLines: () => readonly string[]) =>
      new Set(
        logLines()
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.msg === 'peer refused: another genesis')
          .map((l) => l.peer),
      );
    const joinerId = await waitFor(
      'the joiner listening on p2p',
      scaledMs(15_000),
      async () => String(lines().find((l) => l.msg === 'p2p listening')?.peer_id ?? '') || null,
    );
    await waitFor("the sister's validators refused at the handshake", scaledMs(30_000), async () => {
      const byJoiner = refusedBy(() => j.lines());
      return sister.nodes.every(
        (n) => byJoiner.has(n.peerId) || refusedBy(() => n.program?.lines() ?? []).has(joinerId),
      )
        ? true
        : null;
    });

    // The relay's snapshot: genuine, validly signed by the same keys, refused by its state's genesis.
    const failed = await waitFor(
      'the relayed snapshot refused',
      scaledMs(60_000),
      async () => lines().find((l) => l.msg === 'state sync peer failed' && l.peer === r.peerId) ?? null,
    );
    assert.ok(chunkRequests.length > 0, 'the snapshot was fetched through the relay');
    assert.match(
      String(failed.reason),
      new RegExp(`names genesis ${sisterHash}, not this chain's ${oursHash}: a chain of another genesis`),
    );

    // It gives up on state sync and opens its own chain from genesis, taking no block of the sister.
    await waitFor('state sync given up', scaledMs(60_000), async () =>
      lines().some((l) => l.msg === 'state sync found no verifiable snapshot: block sync from genesis')
        ? true
        : null,
    );
    const client = new RpcClient(`http://127.0.0.1:${base}`, 5000);
    const status = await waitFor('the joiner answering', scaledMs(15_000), () =>
      client.status().catch(() => null),
    );
    await pause(3000);
    assert.deepEqual(
      [(await client.status()).height, (await client.status()).last_hash],
      [0, oursHash],
      'still at its own genesis',
    );
    assert.equal(status.height, 0);
    assert.ok(!lines().some((l) => l.msg === 'state sync restored'), 'nothing restored');
    assert.equal((await fetch(`http://127.0.0.1:${base}/block/1`)).status, 404, 'no block of the sister');
  });
});

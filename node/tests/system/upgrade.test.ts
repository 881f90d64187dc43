/**
 * Upgrade plans on a running chain, with real chain-node processes over libp2p (issue 28): a plan
 * scheduled by the validators' transactions and cancelled before its height leaves every node
 * running past it; a plan to 1.1.0, which this build migrates to, is applied at its height and
 * the chain goes on with the migration's effect; a plan to 1.2.0 is applied the same way, after which
 * the state (a snapshot's content) names the chain's genesis hash; a store past those upgrades is refused by the
 * older build's registry (a downgrade); a plan to a version this build has no migration for halts every node at its
 * height, before signing anything there, with exit code 3 and the log line, and no node forks
 * (every store ends at the height before, with the same blocks), also a validator paused while
 * the others halted (they serve it the blocks before they exit); restarted on the same build a
 * node halts again at once; a store of a protocol version this build does not run is refused at
 * start with exit code 4, naming both versions; a real libp2p peer of another major p2p version is
 * refused by a running node with the reason in its log.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '@chain-devnet/kit/log';
import { waitFor } from '@chain-devnet/kit/wait';
import {
  decodeSnapshot,
  loadGenesis,
  MIGRATIONS,
  parseSemVer,
  supportedVersions,
  type TxType,
  UPGRADE_HALT_EXIT_CODE,
  VERSION_REFUSED_EXIT_CODE,
} from '../../src/chain/index.js';
import { buildTx } from '../../src/client/txBuilder.js';
import { readKeyFile } from '../../src/home/keyFile.js';
import { defaultConfig } from '../../src/main/config.js';
import { StartupError, startNode } from '../../src/main/node.js';
import { P2PNetwork } from '../../src/p2p/network.js';
import { peerKeyFromSeed } from '../../src/p2p/peerKey.js';
import { ChainStore } from '../../src/store/chainStore.js';
import { Cluster } from '../support/cluster.js';
import { chainNode, cleanup, initHome } from '../support/processes.js';

const BLOCK_MS = 300;
const CHAIN_ID = 'chain-devnet-1';

/** A version this build has no migration to: the minor after the newest it runs. */
function unsupportedVersion(): string {
  const newest = parseSemVer(supportedVersions(MIGRATIONS).at(-1)!)!;
  return `${newest.major}.${newest.minor + 1}.0`;
}

describe('upgrade plans on a running chain (4 validators, real processes)', () => {
  let c: Cluster;
  before(async () => {
    // Protocol 1.0.0 explicitly (the generator's default is the newest): the plans to 1.1.0 and 1.2.0 run here.
    c = await Cluster.create(4, BLOCK_MS, { snapshot_interval: 10 }, undefined, '1.0.0');
    c.startAll();
    await c.waitForHeight(2);
  });
  after(() => c.stopAll());

  /** Validator i's UPGRADE_PLAN or UPGRADE_CANCEL, sent to node 0 and confirmed there. */
  async function signPlan(type: TxType, i: number, targetVersion: string, upgradeHeight: number) {
    const node = c.nodes[0]!;
    const tx = await buildTx(node.client, {
      type,
      privateKey: await readKeyFile(join(c.nodes[i]!.home, 'validator_key.json')),
      payload: { targetVersion, upgradeHeight },
      chainId: CHAIN_ID,
      timestamp: Math.floor(Date.now() / 1000),
    });
    const sent = await node.client.sendTx(tx);
    assert.equal(sent.status, 'received', sent.error);
    const receipt = await waitFor(`${type} of ${c.nodes[i]!.name} confirmed`, 20_000, async () => {
      const r = await node.client.receipt(sent.tx_hash).catch(() => null);
      return r !== null && r.status !== 'pending' ? r : null;
    });
    assert.equal(receipt.status, 'confirmed', receipt.error ?? '');
  }

  it('a plan signed by 2 of 4 is pending; the 3rd schedules it; cancelled by 2 before its height, every node runs past it', async () => {
    const version = unsupportedVersion();
    const H = (await c.height(0)) + 40;
    await signPlan('UPGRADE_PLAN', 0, version, H);
    await signPlan('UPGRADE_PLAN', 1, version, H);
    let u = await c.nodes[0]!.client.upgrades();
    assert.equal(u.pending.length, 1);
    assert.deepEqual(
      { ...u.pending[0]!, signers: [...u.pending[0]!.signers].sort() },
      {
        target_version: version,
        upgrade_height: H,
        scheduled: false,
        signers: [c.nodes[0]!.validatorAddress, c.nodes[1]!.validatorAddress].sort(),
        needed: 3,
        active_validators: 4,
        supported: false,
      },
    );
    await signPlan('UPGRADE_PLAN', 2, version, H);
    u = await c.nodes[0]!.client.upgrades();
    assert.deepEqual(
      u.pending.map((p) => [p.target_version, p.upgrade_height, p.scheduled, p.needed]),
      [[version, H, true, 2]],
    );
    await signPlan('UPGRADE_CANCEL', 3, version, H);
    await signPlan('UPGRADE_CANCEL', 1, version, H);
    u = await c.nodes[0]!.client.upgrades();
    assert.deepEqual(u.pending, []);
    await c.waitForHeight(H + 2);
    for (const n of c.nodes) assert.ok(n.program?.running, `${n.name} still runs`);
    await c.assertAgreement(H + 2);
    assert.equal((await c.nodes[3]!.client.upgrades()).protocol_version, '1.0.0');
  });

  it('a plan to 1.1.0, which this build migrates to: applied at its height on every node, its effect visible, and the chain goes on', async () => {
    const H = (await c.height(0)) + 20;
    for (const i of [0, 1, 2]) await signPlan('UPGRADE_PLAN', i, '1.1.0', H);
    const before = await c.nodes[1]!.client.upgrades();
    assert.equal(before.protocol_version, '1.0.0');
    assert.equal(before.params.default_commission_rate, 0.1);
    assert.deepEqual(before.supported_protocol_versions, ['1.0.0', '1.1.0', '1.2.0']);
    assert.equal(before.pending[0]?.supported, true);
    await c.waitForHeight(H + 3);
    for (const n of c.nodes) {
      const u = await n.client.upgrades();
      assert.equal(u.protocol_version, '1.1.0', n.name);
      assert.deepEqual(u.applied, [{ target_version: '1.1.0', upgrade_height: H }], n.name);
      assert.deepEqual(u.pending, [], n.name);
      assert.equal(u.params.default_commission_rate, 0.05, n.name);
      assert.ok(n.program?.running, `${n.name} runs`);
    }
    await c.assertAgreement(H + 3);
  });

  it('a plan to 1.2.0: applied at its height on every node, whose state then names the genesis, and the chain goes on', async () => {
    const H = (await c.height(0)) + 15;
    for (const i of [0, 1, 2]) await signPlan('UPGRADE_PLAN', i, '1.2.0', H);
    await c.waitForHeight(H + 3);
    for (const n of c.nodes) {
      const u = await n.client.upgrades();
      assert.equal(u.protocol_version, '1.2.0', n.name);
      assert.deepEqual(u.applied.at(-1), { target_version: '1.2.0', upgrade_height: H }, n.name);
    }
    await c.assertAgreement(H + 3);
    // The migration wrote the genesis hash each node knows: in the state, so in its snapshots.
    const loaded = loadGenesis(JSON.parse(await readFile(join(c.nodes[0]!.home, 'genesis.json'), 'utf8')));
    assert.ok(loaded.ok);
    const client = c.nodes[1]!.client;
    const snapshot = await waitFor('a snapshot after the migration', 30_000, async () => {
      const head = (await client.status()).height;
      return (await client.snapshots()).snapshots.find((s) => s.height >= H && s.height <= head) ?? null;
    });
    const { state } = decodeSnapshot((await client.snapshotContent(snapshot.height)).file, snapshot.hash);
    assert.equal(state.genesisHash, loaded.genesis.hash);
  });

  it('a node whose registry stops at 1.0.0 (the older build) refuses the upgraded store at start: a downgrade, naming both versions', async () => {
    await c.stop(3);
    const config = { ...defaultConfig(c.nodes[3]!.home), port: 0, p2p: false };
    await assert.rejects(
      startNode(config, createLogger({ level: 'error' }), Date.now, { migrations: [], nodeVersion: '0.1.0' }),
      (e: unknown) => {
        assert.ok(e instanceof StartupError);
        assert.equal(e.exitCode, VERSION_REFUSED_EXIT_CODE);
        assert.match(
          e.message,
          /^a downgrade past the upgrade to 1\.2\.0 applied at height \d+ is refused: the stored state is at protocol version 1\.2\.0, and this node \(version 0\.1\.0\) runs protocol versions 1\.0\.0/,
        );
        return true;
      },
    );
    // On this build it starts and catches up.
    c.start(3);
    await c.waitForHeight((await c.height(0)) + 2, [3]);
  });

  it('a real libp2p peer speaking p2p 2.0.0 is refused by a running node, which logs the reason', async () => {
    const alien = await P2PNetwork.start({
      privateKey: await peerKeyFromSeed(new TextEncoder().encode('p2p-two')),
      listenHost: '127.0.0.1',
      listenPort: 0,
      bootstrap: [c.nodes[0]!.multiaddr],
      logger: createLogger({ level: 'error' }),
      p2pVersion: '2.0.0',
    });
    try {
      const line = await waitFor('validator-0 to refuse the 2.0.0 peer', 20_000, async () => {
        const log = await readFile(c.logPath(0), 'utf8');
        return (
          log
            .split('\n')
            .find(
              (l) =>
                l.includes('peer refused: incompatible p2p protocol version') && l.includes(alien.peerId),
            ) ?? null
        );
      });
      assert.match(
        line,
        /its p2p protocol 2\.0\.0 has another major version than ours \(1\.0\.0\): incompatible/,
      );
      await waitFor('the 2.0.0 peer cut off', 20_000, async () =>
        alien.connectedPeers().includes(c.nodes[0]!.peerId) ? null : true,
      );
    } finally {
      await alien.stop();
    }
  });

  it('a plan to a version this build cannot run: every node halts at its height with exit code 3 and the log line, and none forks, also one that was behind', async () => {
    const version = unsupportedVersion();
    const current = (await c.nodes[0]!.client.upgrades()).protocol_version;
    const H = (await c.height(0)) + 20;
    for (const i of [0, 1, 2]) await signPlan('UPGRADE_PLAN', i, version, H);
    const line = `UPGRADE NEEDED: plan ${version} at height ${H}: the chain is at protocol version ${current} and needs ${version}`;
    // Validator-3 is paused a few heights before the plan and resumed once the other three have
    // halted: behind them, it can get the blocks up to H - 1 only from the halted nodes.
    const laggard = c.nodes[3]!.program!;
    await c.waitForHeight(H - 4, [0]);
    laggard.signal('SIGSTOP');
    try {
      await waitFor('the other three to halt', 60_000, async () => {
        for (const i of [0, 1, 2]) if (!(await readFile(c.logPath(i), 'utf8')).includes(line)) return null;
        return true;
      });
    } finally {
      laggard.signal('SIGCONT');
    }
    const exits = await Promise.all(
      c.nodes.map((n, i) =>
        waitFor(`${n.name} to halt at ${H}`, 60_000, async () =>
          n.program?.running ? null : n.program!.exited,
        ).catch((e: unknown) => {
          throw new Error(`${(e as Error).message}\n${c.diagnose(i)}`);
        }),
      ),
    );
    for (const [i, e] of exits.entries())
      assert.equal(e.code, UPGRADE_HALT_EXIT_CODE, `${c.nodes[i]!.name}: ${c.diagnose(i)}`);
    for (const [i, n] of c.nodes.entries()) {
      const log = await readFile(c.logPath(i), 'utf8');
      assert.equal(log.split(line).length - 1, 1, `${n.name} logs the halt once`);
    }
    // No fork: every store ends at H - 1 with the same blocks; nobody stored (or signed) block H.
    const hashes: string[][] = [];
    for (const n of c.nodes) {
      const store = await ChainStore.open(join(n.home, 'data'));
      try {
        assert.equal(await store.height(), H - 1, `${n.name} stored up to the height before the plan`);
        assert.equal(await store.block(H), null);
        const mine: string[] = [];
        for (let h = H - 10; h < H; h++) mine.push((await store.block(h))!.header.stateRoot);
        hashes.push(mine);
      } finally {
        await store.close();
      }
    }
    for (const h of hashes.slice(1)) assert.deepEqual(h, hashes[0]);
    // Nobody signed a proposal or vote at H: every validator's last signature is below it.
    for (const n of c.nodes) {
      const last = JSON.parse(await readFile(join(n.home, 'priv_validator_state.json'), 'utf8')) as {
        height: number;
      };
      assert.ok(last.height < H, `${n.name} last signed at ${last.height}, below ${H}`);
    }

    // Restarted on the same build, it halts again at once, signing nothing.
    c.start(0);
    const again = await c.nodes[0]!.program!.exited;
    assert.equal(again.code, UPGRADE_HALT_EXIT_CODE, c.diagnose(0));
    const log = await readFile(c.logPath(0), 'utf8');
    assert.equal(log.split(line).length - 1, 2, 'the restarted node logs the halt again');
    const store = await ChainStore.open(join(c.nodes[0]!.home, 'data'));
    try {
      assert.equal(await store.height(), H - 1);
    } finally {
      await store.close();
    }
    const last = JSON.parse(await readFile(join(c.nodes[0]!.home, 'priv_validator_state.json'), 'utf8')) as {
      height: number;
    };
    assert.ok(last.height < H, 'the restarted node signed nothing at H');
  });
});

describe('a node too old for its store', () => {
  after(() => cleanup());

  it('refuses to start with exit code 4, naming the chain’s version and the ones it runs', async () => {
    const home = await initHome();
    const path = join(home, 'genesis.json');
    const genesis = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...genesis, protocol_version: '9.0.0' }));
    const r = await chainNode(['start', '--home', home, '--port', '0', '--no-p2p']);
    assert.equal(r.code, VERSION_REFUSED_EXIT_CODE, r.stderr);
    const supported = supportedVersions(MIGRATIONS).join(', ');
    assert.match(
      r.stderr,
      new RegExp(
        `this node is too old for the chain: the stored state is at protocol version 9\\.0\\.0, and this node \\(version [0-9.]+\\) runs protocol versions ${supported.replaceAll('.', '\\.')}`,
      ),
    );
  });
});

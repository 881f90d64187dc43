/**
 * The one network generator (testnet/network.ts): deterministic from the seed, and what
 * `chain-node testnet` and `chain-node init` write is exactly its network (the devnet's spec is
 * checked against it in devnet/tests/spec/spec.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { privateKeyFromProtobuf } from '@libp2p/crypto/keys';
import { coins, loadGenesis, NETWORK_PARAMS, NEWEST_PROTOCOL_VERSION } from '../../../src/chain/index.js';
import { initHome } from '../../../src/commands/init.js';
import { writeTestnet } from '../../../src/commands/testnet.js';
import { peerIdOf } from '../../../src/p2p/peerKey.js';
import { generateNetwork, type NetworkOptions, nodeFileOf, peersOf } from '../../../src/testnet/index.js';

const T = 1_790_000_000;
const options: NetworkOptions = {
  seed: 'same',
  validators: 3,
  developerAccounts: 2,
  basePort: 20_000,
  genesisTime: T,
  params: { block_time_ms: 500 },
};
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('the network generator', () => {
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('is deterministic from the seed: same options, same network; another seed, other keys', () => {
    const a = generateNetwork(options);
    assert.deepEqual(generateNetwork(options), a);
    const b = generateNetwork({ ...options, seed: 'other' });
    assert.notEqual(b.nodes[0]!.key.private_key, a.nodes[0]!.key.private_key);
    assert.equal(new Set(a.nodes.map((n) => n.key.private_key)).size, 3);
    assert.deepEqual(
      a.nodes.map((n) => [n.name, n.rpcPort, n.p2pPort]),
      [
        ['validator-0', 20_000, 21_000],
        ['validator-1', 20_001, 21_001],
        ['validator-2', 20_002, 21_002],
      ],
    );
  });

  it('starts the genesis at the newest protocol version this build runs, or at the one it is told', () => {
    assert.equal(NEWEST_PROTOCOL_VERSION, '1.2.0');
    assert.equal(generateNetwork(options).genesis.protocol_version, '1.2.0');
    const older = generateNetwork({ ...options, protocolVersion: '1.0.0' });
    assert.equal(older.genesis.protocol_version, '1.0.0');
    const g = loadGenesis(older.genesis);
    assert.ok(g.ok);
    assert.equal(g.genesis.state.protocolVersion, '1.0.0');
  });

  it('makes a genesis the node accepts: accounts, validators with their stakes, their own accounts funded', () => {
    const net = generateNetwork({
      ...options,
      validators: [{ name: 'alice', stake: coins(500), commissionRate: 0.05 }, {}],
      extraAccounts: [{ name: 'faucet', balance: coins(42) }],
    });
    const g = loadGenesis(net.genesis);
    assert.ok(g.ok);
    const state = g.genesis.state;
    const [alice, second] = net.nodes;
    assert.equal(alice!.name, 'alice');
    assert.equal(second!.name, 'validator-1');
    assert.equal(state.validators.get(alice!.key.validator_address)?.stake, coins(500));
    assert.equal(state.validators.get(alice!.key.validator_address)?.commissionPpm, 50_000);
    assert.equal(
      state.validators.get(second!.key.validator_address)?.stake,
      NETWORK_PARAMS.devnet.minStake * 10n,
    );
    assert.deepEqual(
      net.accounts.map((a) => [a.name, state.accounts.get(a.key.address)?.balance]),
      [
        ['account-0', coins(1_000_000)],
        ['account-1', coins(1_000_000)],
        ['faucet', coins(42)],
      ],
    );
    assert.equal(state.accounts.get(alice!.key.address)?.balance, coins(10_000), "a validator's own account");
    assert.equal(state.params.blockTimeMs, 500);
  });

  it('gives a node.json for one host and for containers', async () => {
    const net = generateNetwork(options);
    const peers = await peersOf(net.seed, net.nodes);
    const [n0] = net.nodes;
    const onHost = nodeFileOf(n0!, peers, { host: '127.0.0.1' });
    assert.deepEqual(onHost, {
      port: 20_000,
      p2p_port: 21_000,
      host: '127.0.0.1',
      p2p_host: '127.0.0.1',
      bootstrap: [
        `/ip4/127.0.0.1/tcp/21001/p2p/${peers[1]!.peerId}`,
        `/ip4/127.0.0.1/tcp/21002/p2p/${peers[2]!.peerId}`,
      ],
    });
    const inContainers = nodeFileOf(n0!, peers, { containers: true, dnsName: (n) => `net-${n}` });
    assert.deepEqual(inContainers, {
      port: 8000,
      p2p_port: 9000,
      host: '0.0.0.0',
      p2p_host: '0.0.0.0',
      p2p_announce: ['/dns4/net-validator-0/tcp/9000'],
      bootstrap: [
        `/dns4/net-validator-1/tcp/9000/p2p/${peers[1]!.peerId}`,
        `/dns4/net-validator-2/tcp/9000/p2p/${peers[2]!.peerId}`,
      ],
    });
  });

  it('chain-node testnet writes exactly its network: genesis, keys, peer keys, node.json, accounts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'testnet-'));
    dirs.push(dir);
    await writeTestnet({
      output: dir,
      validators: 3,
      seed: 'same',
      basePort: 20_000,
      host: '127.0.0.1',
      blockTimeMs: 500,
      epochLength: null,
      accounts: 2,
      genesisTime: T,
    });
    const net = generateNetwork(options);
    const peers = await peersOf(net.seed, net.nodes);
    for (const [i, n] of net.nodes.entries()) {
      const home = join(dir, n.name);
      assert.deepEqual(await readJson(join(home, 'genesis.json')), net.genesis, n.name);
      assert.deepEqual(await readJson(join(home, 'validator_key.json')), n.key, n.name);
      const peerKey = privateKeyFromProtobuf(await readFile(join(home, 'p2p_key')));
      assert.equal(peerIdOf(peerKey), peers[i]!.peerId, n.name);
      assert.deepEqual(await readJson(join(home, 'node.json')), nodeFileOf(n, peers, { host: '127.0.0.1' }));
      assert.deepEqual(
        await readJson(join(home, 'accounts.json')),
        net.accounts.map((a) => ({ ...a.key, balance: a.balance.toString() })),
      );
    }
  });

  it('chain-node init is its network of one (random keys without a seed)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'init-'));
    dirs.push(dir);
    const init = (home: string, seed: string | null) =>
      initHome({
        home: join(dir, home),
        network: 'devnet',
        chainId: null,
        blockTimeMs: 500,
        epochLength: null,
        accounts: 2,
        seed,
        force: false,
        genesisTime: T,
        protocolVersion: null,
      });
    const seeded = await init('seeded', 'same');
    const net = generateNetwork({ ...options, validators: 1, basePort: 0, chainId: 'chain-devnet-1' });
    assert.deepEqual(seeded.validator, net.nodes[0]!.key);
    assert.deepEqual(await readJson(join(dir, 'seeded', 'genesis.json')), net.genesis);
    const older = await initHome({
      home: join(dir, 'older'),
      network: 'devnet',
      chainId: null,
      blockTimeMs: 500,
      epochLength: null,
      accounts: 2,
      seed: 'same',
      force: false,
      genesisTime: T,
      protocolVersion: '1.0.0',
    });
    assert.equal((await readJson(older.genesisPath)).protocol_version, '1.0.0');
    const random = await init('random', null);
    assert.notEqual(random.validator.private_key, seeded.validator.private_key);
    assert.match(random.validator.private_key, /^[0-9a-f]{64}$/);
  });
});

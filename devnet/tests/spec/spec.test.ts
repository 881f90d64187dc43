/** The pure part of the devnet: manifest checks, flags over manifest, keys, ports and genesis from a seed. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadGenesis, NEWEST_PROTOCOL_VERSION, parseAmount } from '@chain-devnet/node/chain';
import { generateNetwork } from '@chain-devnet/node/testnet';
import { DevnetError } from '../../src/base/errors.js';
import type { Devnet } from '../../src/devnet/devnet.js';
import { keyOf } from '../../src/operations/tx.js';
import { checkManifest, type Manifest, parseManifestText } from '../../src/spec/manifest.js';
import {
  buildNetworkSpec,
  isServiceAccount,
  mergeFlags,
  nodeStartFlags,
  senderAccounts,
} from '../../src/spec/networkSpec.js';
import { allPorts, monitoringPorts, nodePorts, uiPort } from '../../src/spec/ports.js';
import { pinProtocolVersion } from '../../src/spec/protocolVersion.js';
import { withStoredDefaults } from '../../src/state/devnetState.js';
import { panelInfo } from '../../src/ui/poller.js';

const T = 1_790_000_000;

function problemsOf(value: unknown): string[] {
  const r = checkManifest(value);
  assert.equal(r.ok, false, 'expected the manifest to be refused');
  return r.ok ? [] : r.problems;
}

describe('manifest', () => {
  test('a full YAML manifest parses', () => {
    const m = parseManifestText(
      [
        'validators:',
        '  - { name: alice, stake: 500coin, commission_rate: 0.05 }',
        '  - name: bob',
        'runtime: process',
        'block_time: 300ms',
        'epoch_length: 10',
        'base_port: 30000',
        'seed: s1',
        'developer_accounts: 1',
        'accounts: [{ name: faucet, balance: 42coin }]',
        'params: { unbonding_blocks: 5 }',
        'monitoring: false',
      ].join('\n'),
      'net.yaml',
    );
    assert.deepEqual(m.validators, [
      { name: 'alice', stake: '500coin', commission_rate: 0.05 },
      { name: 'bob' },
    ]);
    assert.equal(m.block_time, '300ms');
    assert.deepEqual(m.params, { unbonding_blocks: 5 });
  });

  test('every node gets --fault-injection among its start flags, a validator marked byzantine (test only) --byzantine too (every runtime uses them)', () => {
    const spec = buildNetworkSpec({
      manifest: parseManifestText('validators: [{}, {}, {}, { byzantine: equivocate }]', 'net.yaml'),
      genesisTime: T,
    });
    assert.deepEqual(
      spec.nodes.map((n) => [n.name, n.byzantine, nodeStartFlags(n)]),
      [
        ['validator-0', null, ['--fault-injection']],
        ['validator-1', null, ['--fault-injection']],
        ['validator-2', null, ['--fault-injection']],
        ['validator-3', 'equivocate', ['--fault-injection', '--byzantine', 'equivocate']],
      ],
    );
  });

  test("disk: a size for every node, a validator's own over it; a size below 1MiB refused", () => {
    const spec = buildNetworkSpec({
      manifest: parseManifestText('disk: {size: 64MiB}\nvalidators: [{}, {disk: {size: 2MB}}]', 'net.yaml'),
      genesisTime: T,
    });
    assert.deepEqual(
      spec.nodes.map((n) => n.diskBytes),
      [64 * 1024 * 1024, 2_000_000],
    );
    assert.equal(spec.diskBytes, 64 * 1024 * 1024);
    assert.deepEqual(problemsOf({ validators: [{ disk: { size: '10k' } }] }), [
      'validators[0].disk.size must be a size of at least 1MiB like 64MiB or 32MB, got "10k"',
    ]);
    assert.deepEqual(problemsOf({ disk: { bytes: 5 } }), [
      'disk.size is required',
      'disk.bytes is not a manifest field',
    ]);
  });

  test('JSON manifests parse too, and an empty file is the defaults', () => {
    assert.deepEqual(parseManifestText('{"validators": 3}', 'm.json'), { validators: 3 });
    assert.deepEqual(parseManifestText('', 'empty.yaml'), {});
  });

  test('every problem names its field', () => {
    assert.deepEqual(problemsOf({ validators: [{ name: 'a' }, { stake: 'lots' }] }), [
      'validators[1].stake must be an amount like 1000coin or wei digits',
    ]);
    assert.deepEqual(problemsOf({ colour: 'red' }), ['colour is not a manifest field']);
    assert.deepEqual(problemsOf({ runtime: 'vm' }), [
      'runtime must be one of auto, docker, process, threads, swarm',
    ]);
    assert.deepEqual(problemsOf({ block_time: 'soon' }), [
      'block_time must be a duration like 300ms or 2s, got "soon"',
    ]);
    assert.deepEqual(problemsOf({ accounts: [{ name: 'x' }] }), ['accounts[0].balance is required']);
    assert.deepEqual(problemsOf({ validators: [{ name: 'a' }, { name: 'a' }] }), [
      'validators: the name a is used twice',
    ]);
    // Names that already mean something where a node's name goes (a log on the timeline, a service).
    assert.deepEqual(problemsOf({ validators: [{ name: 'devnet' }, { name: 'market' }] }), [
      "validators[0].name devnet is not a node's name: it names the devnet's own log on its timeline",
      "validators[1].name market is not a node's name: it names the task market's service",
    ]);
    assert.deepEqual(problemsOf({ validators: 0 }), [
      'validators must be a count from 1 to 64 or a list of { name, stake, commission_rate, byzantine, placement, state_sync, version, zone, disk, clock_skew }',
    ]);
    assert.deepEqual(problemsOf({ validators: [{}, { byzantine: 'lie' }] }), [
      'validators[1].byzantine must be one of equivocate',
    ]);
    assert.deepEqual(problemsOf({ validators: [{ nickname: 'a' }] }), [
      'validators[0].nickname is not a manifest field',
    ]);
    assert.deepEqual(problemsOf({ base_port: 80 }), ['base_port must be >= 1024']);
    assert.deepEqual(problemsOf({ ui: 'yes' }), ['ui must be boolean']);
  });

  test('the panel: on by default, off with ui: false or --no-ui (the flag wins)', () => {
    const spec = (m: object) => buildNetworkSpec({ manifest: m, genesisTime: T });
    assert.equal(spec({}).ui, true);
    assert.equal(spec(parseManifestText('ui: false', 'm.yaml')).ui, false);
    assert.equal(spec(mergeFlags({ ui: true }, { ui: false })).ui, false);
    assert.equal(spec(mergeFlags({ ui: false }, {})).ui, false);
    assert.equal(spec({ base_port: 20000 }).uiPort, 21092);
  });

  test('the swarm settings: placement per validator, engines by machine, a registry; bad ones named', () => {
    const m = parseManifestText(
      [
        'runtime: swarm',
        'registry: registry.example.com:5000/team',
        'engines: { worker-1: "tcp://10.0.0.2:2375", worker-2: "ssh://ops@10.0.0.3" }',
        'validators: [{ placement: worker-1 }, {}]',
      ].join('\n'),
      'net.yaml',
    );
    assert.equal(m.runtime, 'swarm');
    assert.deepEqual(m.engines, { 'worker-1': 'tcp://10.0.0.2:2375', 'worker-2': 'ssh://ops@10.0.0.3' });
    assert.equal(mergeFlags(m, { registry: 'other:5000' }).registry, 'other:5000');
    assert.deepEqual(
      problemsOf({
        registry: 'http://r:5000',
        engines: { w1: '10.0.0.2:2375' },
        validators: [{ placement: '' }],
      }),
      [
        'validators[0].placement must NOT have fewer than 1 characters',
        'registry must be a registry like registry.example.com:5000 (host, optional port and path)',
        'engines.w1 must be an engine address: tcp://HOST:PORT, ssh://[USER@]HOST or unix:///PATH',
      ],
    );
  });

  test('unparsable text says which file and which syntax', () => {
    assert.throws(
      () => parseManifestText('validators: [1, 2', 'bad.yaml'),
      (e: unknown) =>
        e instanceof DevnetError &&
        e.code === 'BAD_MANIFEST' &&
        e.message.startsWith('bad.yaml is not valid YAML'),
    );
    assert.throws(() => parseManifestText('{"a":', 'bad.json'), /bad\.json is not valid JSON/);
  });

  test("chain parameters are checked by the node's own genesis rules, named by field", () => {
    assert.throws(
      () => buildNetworkSpec({ manifest: { params: { epoch_lenght: 5 } }, genesisTime: T }),
      /params\.epoch_lenght is not a known parameter/,
    );
  });
});

describe('flags over the manifest', () => {
  test('flags win, and a validator count grows or cuts a listed set', () => {
    const m = { validators: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], seed: 'x', block_time: '2s' };
    assert.deepEqual(mergeFlags(m, { validators: 2 }).validators, [{ name: 'a' }, { name: 'b' }]);
    assert.deepEqual(mergeFlags(m, { validators: 4 }).validators, [
      { name: 'a' },
      { name: 'b' },
      { name: 'c' },
      {},
    ]);
    const merged = mergeFlags(m, { seed: 'y', blockTime: '300ms', monitoring: false, basePort: 30000 });
    assert.equal(merged.seed, 'y');
    assert.equal(merged.block_time, '300ms');
    assert.equal(merged.monitoring, false);
    assert.equal(merged.base_port, 30000);
    assert.equal(mergeFlags({ validators: 7 }, {}).validators, 7);
  });
});

describe('network spec', () => {
  test('deterministic from the seed: same inputs, same keys and genesis; another seed, other keys', () => {
    const a = buildNetworkSpec({ manifest: { seed: 's' }, genesisTime: T });
    const b = buildNetworkSpec({ manifest: { seed: 's' }, genesisTime: T });
    const c = buildNetworkSpec({ manifest: { seed: 't' }, genesisTime: T });
    assert.deepEqual(a, b);
    assert.notEqual(a.nodes[0]!.key.address, c.nodes[0]!.key.address);
    assert.equal(new Set(a.nodes.map((n) => n.key.private_key)).size, 4);
  });

  test('defaults: 4 validators named validator-i, 3 funded developer accounts, 1 s blocks', () => {
    const s = buildNetworkSpec({ manifest: {}, genesisTime: T });
    assert.deepEqual(
      s.nodes.map((n) => n.name),
      ['validator-0', 'validator-1', 'validator-2', 'validator-3'],
    );
    assert.deepEqual(
      s.accounts.map((a) => a.name),
      ['account-0', 'account-1', 'account-2'],
    );
    assert.equal(s.blockTimeMs, 1000);
    assert.equal(s.chainId, 'chain-devnet-1');
    assert.equal(s.runtime, 'auto');
  });

  test("the genesis loads and holds the manifest's validators, stakes and accounts", () => {
    const s = buildNetworkSpec({
      manifest: {
        validators: [{ name: 'alice', stake: '500coin', commission_rate: 0.05 }, {}],
        accounts: [{ name: 'faucet', balance: '42coin' }],
        epoch_length: 10,
        block_time: '250ms',
      },
      genesisTime: T,
    });
    const g = loadGenesis(s.genesis);
    assert.ok(g.ok);
    const state = g.genesis.state;
    assert.equal(state.params.epochLength, 10);
    assert.equal(state.params.blockTimeMs, 250);
    assert.equal(state.validators.get(s.nodes[0]!.key.validator_address)?.stake, parseAmount('500coin'));
    assert.equal(state.validators.get(s.nodes[0]!.key.validator_address)?.commissionPpm, 50_000);
    assert.equal(s.nodes[1]!.name, 'validator-1');
    const faucet = s.accounts.find((a) => a.name === 'faucet')!;
    assert.equal(state.accounts.get(faucet.key.address)?.balance, parseAmount('42coin'));
  });

  test("the devnet's nodes, accounts and genesis are the node package's network for its seed", () => {
    const manifest = {
      seed: 'same',
      validators: 3,
      developer_accounts: 2,
      base_port: 20_000,
      block_time: '500ms',
    };
    const s = buildNetworkSpec({ manifest, genesisTime: T });
    const net = generateNetwork({
      seed: 'same',
      validators: 3,
      developerAccounts: 2,
      basePort: 20_000,
      genesisTime: T,
      params: { block_time_ms: 500 },
    });
    // The devnet's node adds its test-only Byzantine mode (none here) to the generator's node.
    assert.deepEqual(
      s.nodes,
      net.nodes.map((n) => ({ ...n, byzantine: null, stateSync: false, diskBytes: null })),
    );
    assert.deepEqual(s.accounts, net.accounts);
    assert.deepEqual(s.genesis, net.genesis);
  });
});

describe('the genesis protocol version (protocol_version)', () => {
  const versionOf = (manifest: Manifest) =>
    buildNetworkSpec({ manifest, genesisTime: T }).genesis.protocol_version;

  test('the newest this checkout runs by default; 1.0.0 when a genesis validator runs another version; the manifest’s when given', () => {
    assert.equal(versionOf({}), NEWEST_PROTOCOL_VERSION);
    assert.equal(versionOf({ validators: [{}, { version: 'checkout' }] }), NEWEST_PROTOCOL_VERSION);
    for (const version of ['git:main', 'path:/elsewhere', 'image:chain-node:old'])
      assert.equal(versionOf({ validators: [{}, { version }] }), '1.0.0', version);
    assert.equal(versionOf({ protocol_version: '1.0.0' }), '1.0.0');
    assert.equal(versionOf({ protocol_version: '1.2.0', validators: [{ version: 'git:main' }] }), '1.2.0');
    assert.deepEqual(pinProtocolVersion({ validators: 2 }), { validators: 2, protocol_version: '1.2.0' });
  });

  test('a protocol_version that is no version, or one this checkout does not run, is refused naming the field', () => {
    assert.deepEqual(problemsOf({ protocol_version: '1.2' }), [
      'protocol_version: "1.2" is not a protocol version MAJOR.MINOR.PATCH',
    ]);
    assert.throws(
      () => versionOf({ protocol_version: '1.9.0' }),
      (e: unknown) =>
        e instanceof DevnetError &&
        e.code === 'BAD_MANIFEST' &&
        /^protocol_version 1\.9\.0: this checkout's chain-node runs protocol versions 1\.0\.0, 1\.1\.0, 1\.2\.0$/.test(
          e.message,
        ),
    );
  });

  test('a devnet.json written before the version was pinned is read as the 1.0.0 it was made at', () => {
    const stored = {
      version: 1,
      runtime: 'process',
      input: { manifest: { validators: 2 }, genesisTime: T },
      added: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      monitoring: { prometheus: null, grafana: null, notes: [] },
    } as const;
    assert.equal(withStoredDefaults(stored).input.manifest.protocol_version, '1.0.0');
    const pinned = { ...stored, input: { ...stored.input, manifest: { protocol_version: '1.2.0' } } };
    assert.equal(withStoredDefaults(pinned), pinned);
  });
});

describe('ports', () => {
  test('node i: RPC base+i, p2p base+1000+i; Prometheus base+1090, Grafana base+1091, the panel base+1092', () => {
    assert.deepEqual(nodePorts(8000, 0), { rpcPort: 8000, p2pPort: 9000 });
    assert.deepEqual(nodePorts(30000, 5), { rpcPort: 30005, p2pPort: 31005 });
    assert.deepEqual(monitoringPorts(8000), { prometheus: 9090, grafana: 9091 });
    const s = buildNetworkSpec({ manifest: { base_port: 40000, validators: 21 }, genesisTime: T });
    assert.deepEqual(
      s.nodes.map((n) => n.rpcPort),
      Array.from({ length: 21 }, (_, i) => 40000 + i),
    );
    assert.equal(uiPort(8000), 9092);
    const all = allPorts(8000, 64, true);
    assert.ok(all.includes(9092), "a free base port leaves the panel's free too");
    assert.ok(!allPorts(8000, 4, true, false).includes(9092));
    assert.equal(new Set(all).size, all.length, 'no two services share a port, even with 64 nodes');
  });
});

describe('the task market (market: true, --market)', () => {
  test('off by default; on, at base+1093, its escrow and worker accounts funded from the seed', () => {
    const off = buildNetworkSpec({ manifest: {}, genesisTime: T });
    assert.equal(off.marketPort, null);
    assert.ok(!off.accounts.some((a) => a.name.startsWith('market')));
    const on = buildNetworkSpec({
      manifest: mergeFlags({ base_port: 20000 }, { market: true }),
      genesisTime: T,
    });
    assert.equal(on.marketPort, 21093);
    const again = buildNetworkSpec({ manifest: { base_port: 20000, market: true }, genesisTime: T });
    const accounts = on.accounts.filter((a) => a.name.startsWith('market'));
    assert.deepEqual(
      accounts.map((a) => [a.name, a.balance]),
      [
        ['market', parseAmount('1000000coin')],
        ['market-worker', parseAmount('1000000coin')],
      ],
    );
    assert.deepEqual(
      accounts.map((a) => a.key.address),
      again.accounts.filter((a) => a.name.startsWith('market')).map((a) => a.key.address),
      'the same seed gives the same keys',
    );
    const genesis = loadGenesis(on.genesis);
    assert.ok(genesis.ok);
    for (const a of accounts)
      assert.equal(genesis.genesis.state.accounts.get(a.key.address)?.balance, a.balance);
    const all = allPorts(8000, 64, true, true, true);
    assert.equal(new Set(all).size, all.length, 'the market shares no port, even with 64 nodes');
    assert.ok(all.includes(9093));
  });

  test("the market's accounts are listed, never offered as senders (their keys are the market's)", () => {
    const spec = buildNetworkSpec({ manifest: { market: true }, genesisTime: T });
    assert.deepEqual(
      senderAccounts(spec).map((a) => a.name),
      ['account-0', 'account-1', 'account-2'],
    );
    assert.ok(
      isServiceAccount('market') && isServiceAccount('market-worker') && !isServiceAccount('account-0'),
    );
    const devnet = { spec, nodes: [] } as unknown as Devnet;
    const escrow = spec.accounts.find((a) => a.name === 'market')!;
    for (const from of ['market', 'market-worker', escrow.key.private_key])
      assert.throws(
        () => keyOf(devnet, from),
        (e: unknown) => e instanceof DevnetError && /key belongs to the devnet's task market/.test(e.message),
        from,
      );
    assert.equal(keyOf(devnet, 'account-0').length, 32);
    // The panel's transfer form offers the senders only.
    const panel = {
      ...devnet,
      layout: { home: '/h' },
      state: { runtime: 'process', monitoring: {} },
    } as unknown as Devnet;
    assert.deepEqual(
      panelInfo(panel, 'prometheus', 1_000).accounts.map((a) => a.name),
      ['account-0', 'account-1', 'account-2'],
    );
  });

  test('market must be a boolean; an account named market clashes with the escrow', () => {
    assert.deepEqual(problemsOf({ market: 'yes' }), ['market must be boolean']);
    assert.throws(
      () =>
        buildNetworkSpec({
          manifest: { market: true, accounts: [{ name: 'market', balance: '1coin' }] },
          genesisTime: T,
        }),
      (e) => e instanceof DevnetError && /accounts: the name market is used twice/.test(e.message),
    );
  });
});

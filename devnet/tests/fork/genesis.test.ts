/**
 * The pure parts of `devnet up --fork`: the fork's genesis from a source state and the devnet's
 * own genesis (docs/RULES.md, "A fork's genesis": balances and nonces carried, every source
 * self-stake back to its operator, source validators retired unless the devnet's set names their
 * key, delegations kept, unbonding entries with their remaining blocks, the devnet's validators and
 * accounts added, the supply accounted), and the parsing of URL[@HEIGHT].
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ChainState, coins, type GenesisJson, loadGenesis } from '@chain-devnet/node/chain';
import { keyFromSeed } from '@chain-devnet/node/testnet';
import { DevnetError } from '../../src/base/errors.js';
import { forkChainId, forkGenesis, forkSupply, heldBy } from '../../src/fork/genesis.js';
import { parseForkTarget } from '../../src/fork/source.js';
import { forkOfManifest } from '../../src/operations/fork.js';
import { checkManifest } from '../../src/spec/manifest.js';
import { buildNetworkSpec } from '../../src/spec/networkSpec.js';

const T = 1_790_000_000;
const k = (label: string) => keyFromSeed('source', label);
const [V0, V1, ALICE, BOB] = [k('v0'), k('v1'), k('alice'), k('bob')];
const H = 20;

/** A source at height 20: two validators, a delegation to each, two unbonding entries (one past). */
function sourceState(): ChainState {
  const json: GenesisJson = {
    network: 'devnet',
    chain_id: 'chain-src-1',
    genesis_time: T - 100,
    params: { unbonding_blocks: 50, snapshot_interval: 7 },
    accounts: [
      { address: ALICE.address, balance: coins(100).toString(), nonce: 4 },
      { address: BOB.address, balance: coins(5).toString(), nonce: 1 },
      { address: V0.address, balance: '0' },
    ],
    validators: [V0, V1].map((v, i) => ({
      pub_key: v.pub_key,
      stake: coins(100 + i).toString(),
      name: `v${i}`,
      commission_rate: 0.05,
    })),
    delegations: [
      { delegator: ALICE.address, validator: V0.validator_address, amount: coins(10).toString() },
      { delegator: BOB.address, validator: V1.validator_address, amount: coins(2).toString() },
    ],
    unbonding: [
      {
        delegator: BOB.address,
        validator: V1.validator_address,
        amount: coins(1).toString(),
        completion_height: 35,
      },
      { delegator: ALICE.address, validator: V0.validator_address, amount: '7', completion_height: 60 },
    ],
    treasury: '9',
  };
  const r = loadGenesis(json);
  assert.ok(r.ok, r.ok ? '' : r.problems.join('; '));
  return { ...r.genesis.state, height: H };
}

describe("a fork's genesis", () => {
  const own = buildNetworkSpec({
    manifest: { seed: 'fork', validators: 3, epoch_length: 12 },
    genesisTime: T,
  });
  const source = sourceState();
  const genesis = forkGenesis(source, own.genesis, forkChainId('chain-src-1', H));
  const loaded = loadGenesis(genesis);

  test('is a genesis the node takes, of a chain of its own, with the source network and params under the devnet', () => {
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.problems.join('; '));
    const p = loaded.genesis.state.params;
    assert.equal(p.chainId, 'chain-src-1-fork-20');
    assert.equal(p.unbondingBlocks, 50, "the source's params");
    assert.equal(p.snapshotInterval, 7);
    assert.equal(p.epochLength, 12, "the devnet's manifest over them");
    assert.equal(genesis.genesis_time, T);
  });

  test("carries balances and nonces, returns each source self-stake to its operator, adds the devnet's accounts", () => {
    assert.ok(loaded.ok);
    const s = loaded.genesis.state;
    assert.deepEqual(s.accounts.get(ALICE.address), {
      ...source.accounts.get(ALICE.address),
      rewardHistory: new Map(),
    });
    assert.equal(s.accounts.get(BOB.address)?.nonce, 1);
    assert.equal(s.accounts.get(V0.address)?.balance, coins(100), "v0's stake, back to its operator");
    assert.equal(s.accounts.get(V1.address)?.balance, coins(101));
    for (const a of own.accounts) assert.equal(s.accounts.get(a.key.address)?.balance, a.balance, a.name);
  });

  test("the devnet's validators are the active set; the source's are retired with their delegations", () => {
    assert.ok(loaded.ok);
    const s = loaded.genesis.state;
    const active = [...s.validators.values()].filter((v) => v.status === 'ACTIVE').map((v) => v.address);
    assert.deepEqual(active.sort(), own.nodes.map((n) => n.key.validator_address).sort());
    for (const v of [V0, V1]) {
      const r = s.validators.get(v.validator_address)!;
      assert.deepEqual([r.status, r.stake, r.commissionPpm], ['INACTIVE', 0n, 50_000]);
    }
    assert.equal(s.validators.get(V0.validator_address)?.totalDelegated, coins(10));
    assert.deepEqual(s.delegations.get(V1.validator_address)?.get(BOB.address), {
      delegator: BOB.address,
      validator: V1.validator_address,
      amount: coins(2),
      createdHeight: 0,
    });
  });

  test('keeps each unbonding entry with its remaining blocks (completion height − H)', () => {
    assert.ok(loaded.ok);
    assert.deepEqual(
      loaded.genesis.state.unbonding.map((u) => [u.delegator, u.amount, u.completionHeight]),
      [
        [BOB.address, coins(1), 15],
        [ALICE.address, 7n, 40],
      ],
    );
  });

  test("supply: the fork's genesis supply is what the source held plus what the devnet added", () => {
    assert.ok(loaded.ok);
    const supply = forkSupply(source, own.genesis);
    const t = source.totals;
    assert.equal(supply.carried, t.genesisSupply + t.minted - t.burned);
    assert.equal(supply.carried, heldBy(source));
    assert.equal(loaded.genesis.state.totals.genesisSupply, supply.total);
    assert.equal(
      supply.stakes,
      own.nodes.reduce((s, n) => s + n.stake!, 0n),
    );
    assert.equal(loaded.genesis.state.totals.treasury, 9n);
  });

  test("a devnet validator with a source validator's key takes its place, and the delegations to it", () => {
    const same = buildNetworkSpec({
      manifest: { seed: 'source', validators: [{ name: 'v0' }] },
      genesisTime: T,
    });
    const r = loadGenesis(forkGenesis(source, same.genesis, 'x-fork'));
    assert.ok(r.ok, r.ok ? '' : r.problems.join('; '));
    const v0 = r.genesis.state.validators.get(V0.validator_address)!;
    assert.deepEqual([v0.status, v0.stake, v0.totalDelegated], ['ACTIVE', same.nodes[0]!.stake, coins(10)]);
    assert.equal(r.genesis.state.validators.get(V1.validator_address)?.status, 'INACTIVE');
  });
});

describe("--fork URL[@HEIGHT] and the manifest's fork", () => {
  test("the manifest's fork: a URL and an optional height, each problem named", () => {
    assert.ok(checkManifest({ fork: { url: 'http://127.0.0.1:8000', height: 40 } }).ok);
    const r = checkManifest({ fork: { url: 'ftp://x', height: 0, at: 1 } });
    assert.deepEqual(r.ok ? [] : r.problems.sort(), [
      'fork.at is not a manifest field',
      'fork.height must be >= 1',
      "fork.url must be an http:// or https:// URL (a node's RPC)",
    ]);
    assert.deepEqual(forkOfManifest({ fork: { url: 'http://127.0.0.1:8000/' } }), {
      url: 'http://127.0.0.1:8000',
      height: null,
    });
  });

  test('parses a URL and a height', () => {
    assert.deepEqual(parseForkTarget('http://127.0.0.1:8000'), {
      url: 'http://127.0.0.1:8000',
      height: null,
    });
    assert.deepEqual(parseForkTarget('http://127.0.0.1:8000/@120'), {
      url: 'http://127.0.0.1:8000',
      height: 120,
    });
    assert.deepEqual(parseForkTarget('https://rpc.example:443/node@5'), {
      url: 'https://rpc.example:443/node',
      height: 5,
    });
  });

  test('any URL can be named: the height only after the last @ and all digits, or --fork-height', () => {
    // An @ in the path that is no height: the whole text is the URL.
    assert.deepEqual(parseForkTarget('http://127.0.0.1:8000/team@lab/rpc'), {
      url: 'http://127.0.0.1:8000/team@lab/rpc',
      height: null,
    });
    // Several: the height is after the last.
    assert.deepEqual(parseForkTarget('http://127.0.0.1:8000/a@b/c@7'), {
      url: 'http://127.0.0.1:8000/a@b/c',
      height: 7,
    });
    // A path ending in @DIGITS: --fork-height takes the text whole, or a / after it does.
    assert.deepEqual(parseForkTarget('http://127.0.0.1:8000/v@2', 40), {
      url: 'http://127.0.0.1:8000/v@2',
      height: 40,
    });
    assert.deepEqual(parseForkTarget('http://127.0.0.1:8000/v@2/'), {
      url: 'http://127.0.0.1:8000/v@2',
      height: null,
    });
    assert.deepEqual(parseForkTarget('http://127.0.0.1:8000', 9), {
      url: 'http://127.0.0.1:8000',
      height: 9,
    });
    // The manifest's url is taken whole: its height is a field of its own.
    assert.deepEqual(forkOfManifest({ fork: { url: 'http://127.0.0.1:8000/v@2', height: 3 } }), {
      url: 'http://127.0.0.1:8000/v@2',
      height: 3,
    });
  });

  test('refuses what is not an http URL of a node, or a height that is not positive, naming it', () => {
    for (const [text, why] of [
      ['localhost', /not a URL/],
      ['ftp://127.0.0.1:8000', /must be http:\/\/ or https:\/\//],
      ['http://127.0.0.1:8000?x=1', /no query/],
      ['http://127.0.0.1:8000@0', /HEIGHT must be a positive integer, got 0/],
      // A bad height is named as one, not taken for credentials.
      ['http://127.0.0.1:8000@abc', /"abc" after the @ is not a height: HEIGHT must be a positive integer/],
      ['http://127.0.0.1:8000@-5', /"-5" after the @ is not a height/],
      ['http://127.0.0.1:8000@12x', /"12x" after the @ is not a height/],
      ['http://127.0.0.1:8000@99999999999999999999', /HEIGHT must be a positive integer/],
    ] as const)
      assert.throws(
        () => parseForkTarget(text),
        (e: unknown) => e instanceof DevnetError && e.code === 'BAD_FLAG' && why.test(e.message),
        text,
      );
    assert.throws(
      () => parseForkTarget('http://127.0.0.1:8000@5', 7),
      (e: unknown) => e instanceof DevnetError && /the height is given twice/.test(e.message),
    );
    // Credentials: what follows the @ is no height, and a URL takes none.
    assert.throws(
      () => parseForkTarget('http://user:secret@127.0.0.1:8000'),
      (e: unknown) =>
        e instanceof DevnetError &&
        /"127.0.0.1:8000" after the @ is not a height.*no user or password/.test(e.message),
    );
    // With --fork-height no height is read after the @: refused as credentials.
    assert.throws(
      () => parseForkTarget('http://user:secret@127.0.0.1:8000', 7),
      (e: unknown) => e instanceof DevnetError && /no query, fragment or credentials/.test(e.message),
    );
  });
});

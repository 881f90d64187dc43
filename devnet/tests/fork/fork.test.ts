/**
 * `devnet up --fork URL[@HEIGHT]` (issue 27), the source on the process runtime and the fork on
 * the process and the docker runtime: a source devnet of two
 * validators with transfers, two delegations and an unbonding entry runs past a snapshot; a devnet
 * of three validators of another seed is forked from it. The fork's validators are its own and
 * produce blocks; the source's balances, nonces, delegations and unbonding entry at the fork height
 * are there, field by field, under the documented rule (docs/RULES.md, "A fork's genesis"), the
 * devnet's funded accounts are added, and the supply is accounted. A lying source (a proxy in
 * front of the real one rewriting one answer), a bad URL, an unreachable node and a height the
 * source does not keep are refused before anything of the fork is made, naming what is wrong. With
 * --fork-genesis, the source's own genesis is proven by the genesis hash the state names, and a
 * sister devnet's genesis (the same seed and keys, another genesis time) is refused (issue 39).
 */
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import {
  type ChainState,
  decodeSnapshot,
  encodeSnapshot,
  type GenesisJson,
  loadGenesis,
} from '@chain-devnet/node/chain';
import { RpcClient } from '@chain-devnet/node/client';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { AddJson, StatusJson, UpJson } from '../../src/json/jsonShapes.js';
import { buildNetworkSpec } from '../../src/spec/networkSpec.js';
import { dockerSkip } from '../support/dockerEngine.js';

const EPOCH = 10;
const dockerSkipped = await dockerSkip('the fork on docker');

/** A proxy to `target` whose answer to a path `rewrite` names is replaced. */
async function lyingProxy(target: string, rewrite: (path: string, body: Buffer) => Buffer | null) {
  const server: Server = createServer(async (req, res) => {
    const answer = await fetch(`${target}${req.url}`);
    const body = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end((answer.ok ? rewrite(req.url ?? '', body) : null) ?? body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Waits until the node `client` reaches `height`. */
const reach = (client: RpcClient, height: number, what: string) =>
  waitFor(what, 60_000, async () => ((await client.status()).height >= height ? true : null));

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('devnet up --fork', { timeout: 600_000 }, () => {
  let dir = '';
  let source: RpcClient;
  let sourceUp: UpJson;
  const homes: string[] = [];
  const servers: Server[] = [];
  const home = (name: string) => {
    const h = join(dir, name);
    homes.push(h);
    return h;
  };
  const tx = async (src: string, args: string[]) => {
    const r = await devnetCli(['tx', ...args, '--home', src]);
    assert.equal(r.code, 0, r.stderr);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-fork-'));
    const src = home('source');
    sourceUp = await devnetJson<UpJson>([
      'up',
      '--runtime',
      'process',
      '--validators',
      '2',
      '--block-time',
      '300ms',
      '--epoch-length',
      String(EPOCH),
      '--no-monitoring',
      '--no-ui',
      '--base-port',
      String(await freeDevnetBase(2, false)),
      '--home',
      src,
    ]);
    source = new RpcClient(sourceUp.nodes[0]!.rpc, 10_000);
    await tx(src, ['send', '--from', 'account-0', '--to', 'account-1', '--amount', '5coin']);
    await tx(src, ['send', '--from', 'account-0', '--to', 'account-2', '--amount', '7coin']);
    await tx(src, ['delegate', '--from', 'account-1', '--validator', 'validator-0', '--amount', '100coin']);
    await tx(src, ['delegate', '--from', 'account-2', '--validator', 'validator-1', '--amount', '50coin']);
    await tx(src, ['undelegate', '--from', 'account-2', '--validator', 'validator-1', '--amount', '20coin']);
    const after = (await source.status()).height;
    // A snapshot at or after the last transaction, and the block after it committed.
    await waitFor('a snapshot after the transactions, and the block after it', 120_000, async () => {
      const h = (await source.status()).height;
      const snaps = (await source.snapshots()).snapshots.filter((s) => s.height >= after && s.height < h);
      return snaps.length > 0 ? true : null;
    });
  });

  after(async () => {
    for (const s of servers) s.close();
    for (const h of homes) await devnetCli(['down', '--home', h]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * The source's newest snapshot height whose next block is committed: a fork proves its point with
   * the commit of the block after it, so a snapshot taken at the head is not yet one to fork from.
   */
  async function newestProvableSnapshot(): Promise<number> {
    const head = (await source.status()).height;
    return Math.max(
      ...(await source.snapshots()).snapshots.filter((s) => s.height < head).map((s) => s.height),
    );
  }

  /** The source's state at a snapshot height, as its own content says. */
  async function sourceStateAt(height: number): Promise<ChainState> {
    const listed = (await source.snapshot(height)).hash;
    return decodeSnapshot((await source.snapshotContent(height)).file, listed).state;
  }

  const refusal = async (args: string[]) => {
    const h = home(`refused-${homes.length}`);
    const r = await devnetCli([
      'up',
      ...args,
      '--runtime',
      'process',
      '--no-monitoring',
      '--no-ui',
      '--home',
      h,
    ]);
    assert.notEqual(r.code, 0, `${args.join(' ')} was refused`);
    assert.equal(await exists(join(h, 'devnet.json')), false, 'nothing of the fork was made');
    return `${r.stdout}${r.stderr}`;
  };

  /** Forks the source at its newest snapshot on `runtime` and compares the fork with it, field by field. */
  async function forkAndCompare(runtime: 'process' | 'docker'): Promise<void> {
    const height = await newestProvableSnapshot();
    const src = await sourceStateAt(height);
    const fork = home(`fork-${runtime}`);
    const up = await devnetJson<UpJson>([
      'up',
      '--fork',
      `${sourceUp.nodes[0]!.rpc}@${height}`,
      '--runtime',
      runtime,
      '--seed',
      'fork',
      '--validators',
      '3',
      '--block-time',
      '300ms',
      '--no-monitoring',
      '--no-ui',
      '--base-port',
      String(await freeDevnetBase(3, false)),
      '--home',
      fork,
    ]);
    assert.equal(up.chain_id, `${src.params.chainId}-fork-${height}`);
    const status = await devnetJson<StatusJson>(['status', '--home', fork]);
    assert.deepEqual(
      [status.fork?.url, status.fork?.height, status.fork?.source_chain_id, status.fork?.block_hash],
      [sourceUp.nodes[0]!.rpc, height, src.params.chainId, src.lastBlockHash],
    );
    const client = new RpcClient(up.nodes[0]!.rpc, 10_000);
    await reach(client, 5, 'the fork past height 5');

    // Its validators: the three of the fork ACTIVE, proposing its blocks; the source's retired.
    const mine = up.nodes.map((n) => n.validator_address).sort();
    const validators = (await client.validators()).validators;
    assert.deepEqual(
      validators
        .filter((v) => v.status === 'ACTIVE')
        .map((v) => v.address)
        .sort(),
      mine,
    );
    for (const v of src.validators.values()) {
      const r = validators.find((x) => x.address === v.address)!;
      assert.deepEqual(
        [r.status, r.power, BigInt(r.total_delegated)],
        ['INACTIVE', '0', v.totalDelegated],
        v.name,
      );
    }
    for (let h = 1; h <= 5; h++) assert.ok(mine.includes((await client.block(h)).header.proposer_address));

    // Every source account: its balance (plus its validator's stake for an operator) and its nonce.
    const operators = new Map([...src.validators.values()].map((v) => [v.operator, v.stake]));
    for (const [address, a] of src.accounts) {
      const b = await client.balance(address);
      assert.deepEqual(
        [BigInt(b.balance), b.nonce],
        [a.balance + (operators.get(address) ?? 0n), a.nonce],
        address,
      );
    }
    assert.ok(
      [...src.accounts.values()].some((a) => a.nonce > 0),
      'the source has nonces to carry',
    );
    // Every delegation and unbonding entry, the heights rebased to the fork's.
    for (const [validator, inner] of src.delegations)
      for (const [delegator, d] of inner) {
        const got = (await client.delegations(delegator)).delegations.find((x) => x.validator === validator);
        assert.deepEqual(
          [BigInt(got?.amount ?? -1), got?.created_height],
          [d.amount, 0],
          `${delegator} → ${validator}`,
        );
      }
    assert.equal(src.unbonding.length, 1, 'the source has one unbonding entry');
    for (const u of src.unbonding) {
      const got = (await client.unbonding(u.delegator)).unbonding_entries;
      assert.deepEqual(
        got.map((e) => [e.validator, BigInt(e.amount), e.completion_height]),
        [[u.validator, u.amount, u.completionHeight - height]],
      );
    }
    // The devnet's funded accounts, added.
    for (const a of up.accounts) {
      const b = await client.balance(a.address);
      assert.deepEqual([b.balance, b.nonce], [a.balance, 0], a.name);
    }

    // Supply: what the source held at the height, plus what the fork added; conserved since.
    const supply = await client.supply();
    const t = src.totals;
    assert.equal(BigInt(status.fork!.supply.carried), t.genesisSupply + t.minted - t.burned);
    assert.equal(
      BigInt(supply.genesis_supply),
      BigInt(status.fork!.supply.carried) + BigInt(status.fork!.supply.added),
    );
    const held = ['balances', 'stakes', 'delegations', 'unbonding', 'treasury'] as const;
    assert.equal(
      held.reduce((s, k) => s + BigInt(supply[k]), 0n),
      BigInt(supply.genesis_supply) + BigInt(supply.total_minted) - BigInt(supply.total_burned),
    );
    await devnetCli(['down', '--home', fork]);
  }

  test("the fork runs on its own validators with the source's state at the fork height", () =>
    forkAndCompare('process'));

  test('the same on the docker runtime', { skip: dockerSkipped }, () => forkAndCompare('docker'));

  test("a fork from the manifest's fork field; saved and restored, it is the same fork; a node added joins it", async () => {
    const dirManifest = join(dir, 'fork.json');
    await writeFile(
      dirManifest,
      JSON.stringify({
        fork: { url: sourceUp.nodes[0]!.rpc },
        seed: 'fork2',
        validators: 1,
        block_time: '300ms',
        monitoring: false,
        ui: false,
        base_port: await freeDevnetBase(3, false),
      }),
    );
    const fork = home('fork2');
    const up = await devnetJson<UpJson>([
      'up',
      '--manifest',
      dirManifest,
      '--runtime',
      'process',
      '--home',
      fork,
    ]);
    const before = await devnetJson<StatusJson>(['status', '--home', fork]);
    assert.equal(up.chain_id, `${before.fork!.source_chain_id}-fork-${before.fork!.height}`);
    const client = new RpcClient(up.nodes[0]!.rpc, 10_000);
    await reach(client, 3, 'the fork past height 3');
    const added = await devnetJson<AddJson>(['add', '--home', fork]);
    const joiner = new RpcClient(added.rpc, 10_000);
    const target = (await client.status()).height + 2;
    await reach(joiner, target, `${added.name} at ${target}`);
    assert.deepEqual(await joiner.block(target), await client.block(target));

    const archive = join(dir, 'fork.tar.gz');
    assert.equal((await devnetCli(['save', archive, '--home', fork])).code, 0);
    await devnetCli(['down', '--home', fork]);
    const again = home('fork2-again');
    const restored = await devnetJson<UpJson>([
      'up',
      '--from',
      archive,
      '--runtime',
      'process',
      '--base-port',
      String(await freeDevnetBase(3, false)),
      '--home',
      again,
    ]);
    assert.equal(restored.chain_id, up.chain_id);
    assert.deepEqual((await devnetJson<StatusJson>(['status', '--home', again])).fork, before.fork);
    const back = new RpcClient(restored.nodes[0]!.rpc, 10_000);
    const past = (await back.status()).height + 2;
    await reach(back, past, `the restored fork past ${past}`);
  });

  test("a scenario on a fork: the testkit's invariants hold (the validator-set model knows the retired validators)", async () => {
    const file = join(dir, 'fork-scenario.yaml');
    await writeFile(
      file,
      [
        'name: fork-scenario',
        'manifest:',
        '  validators: 2',
        '  block_time: 300ms',
        '  monitoring: false',
        `  base_port: ${await freeDevnetBase(2, false)}`,
        `  fork: { url: "${sourceUp.nodes[0]!.rpc}" }`,
        'steps:',
        '  - tx: { type: TRANSFER, from: account-0, to: account-1, amount: 1coin }',
        '  - expect: { height: { atLeast: 6 } }',
        '',
      ].join('\n'),
    );
    const r = await devnetCli(['test', file, '--runtime', 'process', '--logs-dir', join(dir, 'logs')]);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /invariant: every proposer as the validator-set model says/);
    assert.match(r.stdout, /invariant: supply conserved/);
  });

  test('a lying source is refused before anything starts, naming the check', async () => {
    const height = await newestProvableSnapshot();
    const honest = await sourceStateAt(height);
    const forged = encodeSnapshot({ ...honest, totals: { ...honest.totals, treasury: 10n ** 24n } });
    const rpc = sourceUp.nodes[0]!.rpc;
    const forger = await lyingProxy(rpc, (path) =>
      path === `/snapshots/${height}/content`
        ? Buffer.from(forged.file)
        : path === '/snapshots'
          ? Buffer.from(JSON.stringify({ snapshots: [{ height, hash: forged.info.hash }] }))
          : null,
    );
    servers.push(forger.server);
    assert.match(
      await refusal(['--fork', `${forger.url}@${height}`]),
      new RegExp(
        `snapshot ${height} is not proven: restored state root \\w+ differs from block ${height}'s state_root`,
      ),
    );
    const noQuorum = await lyingProxy(rpc, (path, body) =>
      path === `/block/${height + 1}/commit`
        ? Buffer.from(JSON.stringify({ ...JSON.parse(body.toString()), signatures: [] }))
        : null,
    );
    servers.push(noQuorum.server);
    assert.match(
      await refusal(['--fork', `${noQuorum.url}@${height}`]),
      new RegExp(`snapshot ${height} is not proven: commit ${height + 1} refused`),
    );
  });

  test("--fork-genesis: the source's own genesis is proven by the genesis hash its state names; a sister devnet's (same seed, another genesis time) is refused", async () => {
    const rpc = sourceUp.nodes[0]!.rpc;
    const sourceGenesis = JSON.parse(
      await readFile(join(dir, 'source', 'nodes', 'validator-0', 'genesis.json'), 'utf8'),
    ) as GenesisJson;
    const own = loadGenesis(sourceGenesis);
    const sisterJson = { ...sourceGenesis, genesis_time: sourceGenesis.genesis_time - 3600 };
    const sister = loadGenesis(sisterJson);
    assert.ok(own.ok && sister.ok);
    assert.equal(
      sourceGenesis.protocol_version,
      '1.2.0',
      "the devnet's default: the state names its genesis",
    );
    const sisterFile = join(dir, 'sister-genesis.json');
    await writeFile(sisterFile, JSON.stringify(sisterJson));
    // The same validator keys signed the fork point: only the genesis hash in the state tells them apart.
    assert.match(
      await refusal(['--fork', rpc, '--fork-genesis', sisterFile]),
      new RegExp(
        `is not proven: the state at \\d+ names genesis ${own.genesis.hash}, not this chain's ${sister.genesis.hash}: a chain of another genesis`,
      ),
    );
    const ownFile = join(dir, 'source-genesis.json');
    await writeFile(ownFile, JSON.stringify(sourceGenesis));
    const fork = home('fork-own-genesis');
    const up = await devnetCli([
      'up',
      '--fork',
      rpc,
      '--fork-genesis',
      ownFile,
      '--seed',
      'fork3',
      '--validators',
      '1',
      '--runtime',
      'process',
      '--no-monitoring',
      '--no-ui',
      '--base-port',
      String(await freeDevnetBase(1, false)),
      '--home',
      fork,
    ]);
    assert.equal(up.code, 0, up.stderr);
    assert.match(
      up.stderr,
      new RegExp(
        `fork: the state at height \\d+ names genesis ${own.genesis.hash}, the --fork-genesis file's`,
      ),
    );
    await devnetCli(['down', '--home', fork]);
  });

  test('--fork-genesis: a genesis whose validators did not sign the fork point is refused; a missing file is named', async () => {
    const rpc = sourceUp.nodes[0]!.rpc;
    const other = join(dir, 'other-genesis.json');
    const spec = buildNetworkSpec({ manifest: { seed: 'someone-else' }, genesisTime: 1_790_000_000 });
    await writeFile(other, JSON.stringify(spec.genesis));
    assert.match(
      await refusal(['--fork', rpc, '--fork-genesis', other]),
      /is not proven: only 0 of 4 genesis validators signed block \d+ \(more than 1\/3 needed\)/,
    );
    assert.match(
      await refusal(['--fork', rpc, '--fork-genesis', join(dir, 'missing.json')]),
      /--fork-genesis .*missing\.json: ENOENT/,
    );
  });

  test('a bad URL, an unreachable node and a height the source does not keep are refused', async () => {
    assert.match(
      await refusal(['--fork', 'ftp://127.0.0.1:1']),
      /--fork ftp:\/\/127\.0\.0\.1:1: the URL must be http/,
    );
    const dead = await freeBasePort((b) => [b]);
    assert.match(
      await refusal(['--fork', `http://127.0.0.1:${dead}`]),
      new RegExp(`--fork http://127.0.0.1:${dead}: the source does not answer \\(ECONNREFUSED\\)`),
    );
    assert.match(
      await refusal(['--fork', `${sourceUp.nodes[0]!.rpc}@3`]),
      /the source keeps no snapshot at height 3 \(it keeps: [0-9, ]+\)/,
    );
    assert.match(
      await refusal(['--fork', sourceUp.nodes[0]!.rpc, '--from', 'x.tar.gz']),
      /--from and --fork: a devnet starts from an archive or from a running network, not both/,
    );
  });
});

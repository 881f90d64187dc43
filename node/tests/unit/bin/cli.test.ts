/** The chain-node command as a person uses it: the quick start, and clear errors for mistakes. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '../../../src/client/rpcClient.js';
import {
  CHAIN_NODE,
  chainNode,
  cleanup,
  initHome,
  rpcUrlOf,
  startNodeProcess,
  waitForHeight,
} from '../../support/processes.js';

after(cleanup);

/** The home of a one-validator chain (200 ms blocks) that ran up to `height` and stopped cleanly. */
async function homeRunUpTo(height: number): Promise<string> {
  const home = await initHome(['--block-time', '200ms']);
  const node = await startNodeProcess(home);
  await waitForHeight(node, height);
  await node.program.stop();
  return home;
}

describe('chain-node', () => {
  it('quick start: dev starts a one-node chain and tx send confirms a transfer', async () => {
    const home = await mkdtemp(join(tmpdir(), 'chain-node-dev-'));
    const node = await startNodeProcess(home, []).catch(() => null);
    assert.equal(node, null, 'start without a genesis fails');
    const dev = startProgram({
      args: [
        CHAIN_NODE,
        'dev',
        '--home',
        home,
        '--port',
        '0',
        '--p2p-port',
        '0',
        '--log-format',
        'json',
        '--block-time',
        '200ms',
      ],
      name: 'chain-node dev',
      collect: true,
    });
    try {
      const url = await rpcUrlOf(dev);
      assert.match(
        dev.stdout,
        /\(0\) coin1\w+ {2}private key [0-9a-f]{64}/,
        'the funded accounts are printed',
      );
      const accounts = JSON.parse(await readFile(join(home, 'accounts.json'), 'utf8')) as {
        address: string;
      }[];
      const recipient = accounts[1]!.address;
      const client = new RpcClient(url);
      await waitFor('the first block', 15_000, async () =>
        (await client.status()).height >= 1 ? true : null,
      );
      const sent = await chainNode([
        'tx',
        'send',
        '--home',
        home,
        '--rpc',
        url,
        '--from',
        '0',
        '--to',
        recipient,
        '--amount',
        '1.5coin',
      ]);
      assert.equal(sent.code, 0, sent.stderr + sent.stdout);
      assert.match(sent.stdout, /sent 1\.5 coin from coin1\w+ to coin1\w+: tx [0-9a-f]{64}/);
      assert.match(sent.stdout, /"status":"confirmed"/);
      const balance = await client.balance(recipient);
      assert.equal(balance.balance, '1000001500000000000000000');
    } finally {
      await dev.stop();
    }
  });

  it('explains bad flags, a missing genesis and an existing genesis', async () => {
    const badFlag = await chainNode(['start', '--bogus']);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /unknown option --bogus.*\n.*--help/s);
    const badDuration = await chainNode(['init', '--home', '/tmp/never', '--block-time', 'soon']);
    assert.equal(badDuration.code, 2);
    assert.match(badDuration.stderr, /--block-time must be a duration such as 500ms or 2s/);
    const empty = await mkdtemp(join(tmpdir(), 'chain-node-empty-'));
    const missing = await chainNode(['start', '--home', empty, '--port', '0', '--p2p-port', '0']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read genesis file .*genesis\.json.*chain-node init/);
    const home = await initHome();
    const again = await chainNode(['init', '--home', home]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists: pass --force/);
    const help = await chainNode(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /chain-node init/);
  });

  it('names every problem of an invalid genesis', async () => {
    const home = await initHome();
    const genesis = JSON.parse(await readFile(join(home, 'genesis.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(
      join(home, 'genesis.json'),
      JSON.stringify({
        ...genesis,
        params: { epoch_length: -1, bogus: 1 },
        accounts: [{ address: 'coin1nope', balance: '1' }],
      }),
    );
    const res = await chainNode(['start', '--home', home, '--port', '0', '--p2p-port', '0']);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /params\.epoch_length must be a non-negative integer/);
    assert.match(res.stderr, /params\.bogus is not a known parameter/);
    assert.match(res.stderr, /accounts\[0\]\.address must be a coin1 address/);
  });

  it('refuses a data folder of another chain or another genesis', async () => {
    const home = await homeRunUpTo(1);
    const genesisPath = join(home, 'genesis.json');
    const genesis = JSON.parse(await readFile(genesisPath, 'utf8')) as Record<string, unknown>;
    await writeFile(genesisPath, JSON.stringify({ ...genesis, chain_id: 'chain-other-1' }));
    const other = await chainNode(['start', '--home', home, '--port', '0', '--p2p-port', '0']);
    assert.equal(other.code, 1);
    assert.match(
      other.stderr,
      /belongs to chain chain-devnet-1, but the genesis is for chain-other-1: use another --home/,
    );
    await writeFile(
      genesisPath,
      JSON.stringify({ ...genesis, genesis_time: (genesis.genesis_time as number) + 1 }),
    );
    const changed = await chainNode(['start', '--home', home, '--port', '0', '--p2p-port', '0']);
    assert.equal(changed.code, 1);
    assert.match(changed.stderr, /was created from genesis [0-9a-f]{64}, not [0-9a-f]{64}/);
  });

  it('a validator records what it signs in priv_validator_state.json, and a corrupt one stops the next start with what to do', async () => {
    const home = await homeRunUpTo(2);
    const statePath = join(home, 'priv_validator_state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { height: number; step: string };
    assert.ok(state.height >= 2, `signed up to height ${state.height}`);
    await writeFile(statePath, '{"height": 3, "round"');
    const res = await chainNode(['start', '--home', home, '--port', '0', '--p2p-port', '0']);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /priv_validator_state\.json is not valid JSON .*Restore it from a backup/s);
  });

  it('--byzantine is a test-only mode: refused on a testnet genesis, and an unknown mode is a usage error', async () => {
    const home = await initHome(['--network', 'testnet']);
    const refused = await chainNode([
      'start',
      '--home',
      home,
      '--port',
      '0',
      '--p2p-port',
      '0',
      '--byzantine',
      'equivocate',
    ]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /--byzantine equivocate is a test-only mode for devnets; refused on a testnet genesis/,
    );
    const unknown = await chainNode(['start', '--home', home, '--byzantine', 'lie']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--byzantine must be one of equivocate, got lie/);
  });

  it('init and testnet write the newest protocol version this build runs, or the one --protocol-version names', async () => {
    const version = async (home: string) =>
      (JSON.parse(await readFile(join(home, 'genesis.json'), 'utf8')) as { protocol_version: string })
        .protocol_version;
    assert.equal(await version(await initHome()), '1.2.0');
    assert.equal(await version(await initHome(['--protocol-version', '1.0.0'])), '1.0.0');
    const out = await mkdtemp(join(tmpdir(), 'chain-node-testnet-'));
    const testnet = await chainNode([
      'testnet',
      '--validators',
      '2',
      '--output',
      out,
      '--protocol-version',
      '1.1.0',
    ]);
    assert.equal(testnet.code, 0, testnet.stderr);
    assert.equal(await version(join(out, 'validator-1')), '1.1.0');
    const unknown = await chainNode(['init', '--home', out, '--protocol-version', '1.9.0']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--protocol-version must be one of 1\.0\.0, 1\.1\.0, 1\.2\.0, got 1\.9\.0/);
  });

  it('--fail-point is fault injection: refused without --fault-injection, and an unknown point is a usage error', async () => {
    const home = await initHome();
    const start = ['start', '--home', home, '--port', '0', '--p2p-port', '0', '--fail-point'];
    const refused = await chainNode([...start, 'lock-recorded']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--fail-point lock-recorded is fault injection: it needs --fault-injection/);
    const unknown = await chainNode([...start, 'anywhere', '--fault-injection']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /--fail-point must be one of lock-recorded, proposal-recorded, got anywhere/,
    );
  });
});

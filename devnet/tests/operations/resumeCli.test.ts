/**
 * `devnet up` on a home that has a devnet (issue 27): before, it refused ("a devnet already lives
 * in …"). Now a running devnet is reported (its status printed, exit 0); one `down --keep-data`
 * kept is resumed where it stopped on its runtime; a stopped one made on the process runtime is
 * resumed on docker with `--runtime docker`, its nodes' data carried into their volumes; back to
 * process is refused; one made on docker and kept by `down --keep-data` is resumed from its volumes.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RpcClient } from '@chain-devnet/node/client';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { StatusJson, TxJson, UpJson } from '../../src/json/jsonShapes.js';
import { dockerLeftovers, dockerSkip } from '../support/dockerEngine.js';

describe('devnet up on a home that has a devnet', () => {
  let dir = '';
  let home = '';
  let base = 0;
  let first: UpJson;
  const json = <T>(...args: string[]) => devnetJson<T>([...args, '--home', home]);
  const rpc = () => new RpcClient(first.nodes[0]!.rpc, 5_000);
  const sender = () => first.accounts[0]!.address;
  /** A confirmed transfer from account-0 (its address `from`), then its nonce and the node's height. */
  const transferred = async (node: RpcClient, from: string) => {
    const sent = await json<TxJson>(
      'tx',
      'send',
      '--from',
      'account-0',
      '--to',
      'account-1',
      '--amount',
      '1coin',
    );
    assert.equal(sent.receipt?.status, 'confirmed');
    return { nonce: (await node.balance(from)).nonce, height: (await node.status()).height };
  };
  /** A new devnet in the home: 4 validators, 400 ms blocks, nothing beside the nodes. */
  const upOn = (runtime: string, seed: string) =>
    json<UpJson>(
      'up',
      '--runtime',
      runtime,
      '--block-time',
      '400ms',
      '--base-port',
      String(base),
      '--no-monitoring',
      '--no-ui',
      '--seed',
      seed,
    );

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-resume-'));
    home = join(dir, 'home');
    base = await freeDevnetBase(4);
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('up, then up again: the running devnet is reported with its status, exit 0, nothing started', async () => {
    first = await upOn('process', 'resume-cli');
    assert.equal(first.resumed, false);
    const again = await devnetCli(['up', '--home', home]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /a devnet already runs in/);
    assert.match(again.stdout, /validator-0/);
    const againJson = await json<UpJson>('up');
    assert.equal(againJson.resumed, 'running');
  });

  test('down --keep-data, then up: resumed where it stopped on the process runtime, nonce and height kept', async () => {
    const { nonce, height } = await transferred(rpc(), sender());
    await json('down', '--keep-data');
    assert.equal((await json<StatusJson>('status')).status, 'stopped');
    const resumed = await json<UpJson>('up');
    assert.equal(resumed.resumed, 'resumed');
    assert.equal(resumed.runtime, 'process');
    assert.ok((await rpc().status()).height > height, 'the chain goes on from its height');
    assert.equal((await rpc().balance(sender())).nonce, nonce, "account-0's nonce");
    assert.equal((await json<StatusJson>('status')).status, 'running');
  });

  test('stopped on process, up --runtime docker: resumed on docker with its chain', async (t) => {
    const skip = await dockerSkip('resume on docker');
    if (skip !== false) return t.skip(skip);
    const nonce = (await rpc().balance(sender())).nonce;
    const height = (await rpc().status()).height;
    await json('stop');
    const moved = await json<UpJson>('up', '--runtime', 'docker');
    assert.equal(moved.resumed, 'resumed');
    assert.equal(moved.runtime, 'docker');
    const status = await json<StatusJson>('status');
    assert.equal(status.runtime, 'docker');
    assert.ok((await rpc().status()).height > height, 'the chain goes on from its height on docker');
    assert.equal((await rpc().balance(sender())).nonce, nonce, "account-0's nonce on docker");
    // From docker (its data in volumes) back to process: refused, saying what can be done.
    await json('stop');
    const back = await devnetCli(['up', '--home', home, '--runtime', 'process']);
    assert.equal(back.code, 2, 'a bad flag');
    assert.match(
      back.stderr + back.stdout,
      /moves from process or threads to docker, and between process and threads, only/,
    );
    await devnetCli(['down', '--home', home]);
    assert.deepEqual(await dockerLeftovers(home), []);
  });

  test('made on docker, down --keep-data, then up: resumed on docker from its volumes', async (t) => {
    const skip = await dockerSkip('resume on docker');
    if (skip !== false) return t.skip(skip);
    const made = await upOn('docker', 'resume-docker');
    const node = new RpcClient(made.nodes[0]!.rpc, 5_000);
    const { nonce, height } = await transferred(node, made.accounts[0]!.address);
    await json('down', '--keep-data');
    const resumed = await json<UpJson>('up');
    assert.equal(resumed.resumed, 'resumed');
    assert.equal(resumed.runtime, 'docker');
    assert.ok((await node.status()).height > height, 'the chain goes on from its height');
    assert.equal((await node.balance(made.accounts[0]!.address)).nonce, nonce, "account-0's nonce");
    await devnetCli(['down', '--home', home]);
    assert.deepEqual(await dockerLeftovers(home), []);
  });
});

/**
 * `devnet up --market` on a runtime, through the `devnet` command as a user runs it: the market
 * at P+1093 printed by up and shown by status, its sample worker completing a task a developer
 * account posts (the worker's claim, its SUBMIT_RESULT, the split paid), its log, both logs kept
 * by a failed run beside the nodes', and down removing both with the rest.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { portFree } from '@chain-devnet/kit/ports';
import { processesMentioning } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { coins } from '@chain-devnet/node/chain';
import { RpcClient } from '@chain-devnet/node/client';
import { hexToBytes } from '@chain-devnet/node/crypto';
import { fundedRequest, MarketClient, sampleResultHash } from '@chain-devnet/node/market';
import { Layout } from '../../src/base/layout.js';
import { Devnet } from '../../src/devnet/devnet.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { StatusJson, UpJson } from '../../src/json/jsonShapes.js';
import type { MarketStatus } from '../../src/operations/market.js';
import type { RuntimeKind } from '../../src/runtime/runtime.js';
import { allPorts } from '../../src/spec/ports.js';
import { keepLogs } from '../../src/testkit/nodeLogs.js';

export interface MarketSuiteOptions {
  readonly runtime: RuntimeKind;
  /** Containers, networks, volumes of the devnet still there (docker). */
  readonly leftovers?: (home: string) => Promise<string[]>;
  readonly skip?: string | false;
}

export function marketSuite(o: MarketSuiteOptions): void {
  describe(`devnet up --market on the ${o.runtime} runtime`, { skip: o.skip ?? false }, () => {
    let dir = '';
    let home = '';
    let base = 0;
    let upJson: UpJson;
    const json = <T>(...args: string[]) => devnetJson<T>([...args, '--home', home]);
    const logTail = async (name: string) => {
      const r = await devnetCli(['logs', name, '--home', home]);
      return `${name}'s last log lines:\n${`${r.stdout}${r.stderr}`.trim().split('\n').slice(-12).join('\n')}`;
    };

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), `devnet-market-${o.runtime}-`));
      home = join(dir, 'home');
      base = await freeDevnetBase(2, false, true);
    });

    after(async () => {
      await devnetCli(['down', '--home', home]);
      await rm(dir, { recursive: true, force: true });
    });

    test('up --market: the market answers at P+1093, printed by up; status shows it and its worker', async () => {
      upJson = await json<UpJson>(
        'up',
        '--runtime',
        o.runtime,
        '--validators',
        '2',
        '--block-time',
        '500ms',
        '--base-port',
        String(base),
        '--no-monitoring',
        '--no-ui',
        '--market',
      );
      const url = `http://127.0.0.1:${base + 1093}`;
      assert.equal(upJson.market, url);
      // Recorded, so that later commands (status, the testkit) reach it where up did.
      const state = JSON.parse(await readFile(new Layout(home).stateFile, 'utf8')) as { market?: string };
      assert.equal(state.market, url);
      assert.deepEqual(
        upJson.accounts.map((a) => a.name).filter((n) => n.startsWith('market')),
        ['market', 'market-worker'],
      );
      // The market's accounts are listed by address, their keys not given out, and no sender.
      for (const name of ['market', 'market-worker']) {
        assert.equal(upJson.accounts.find((a) => a.name === name)!.private_key, null);
        const send = await devnetCli([
          'tx',
          'send',
          '--from',
          name,
          '--to',
          'account-1',
          '--amount',
          '1coin',
          '--home',
          home,
        ]);
        assert.notEqual(send.code, 0, send.stdout);
        assert.match(send.stderr, /key belongs to the devnet's task market/);
      }
      const info = await new MarketClient(url, 5_000).info();
      assert.equal(info.chain_id, upJson.chain_id);
      assert.equal(info.escrow_address, upJson.accounts.find((a) => a.name === 'market')!.address);
      const s = await json<StatusJson>('status');
      assert.equal(s.market?.url, url);
      assert.equal(s.market?.up, true);
      assert.equal(s.market?.state, 'running');
      assert.equal(s.market?.worker, 'running');
      const text = await devnetCli(['status', '--home', home]);
      assert.match(text.stdout, new RegExp(`task market ${url} at height \\d+ · worker running`));
    });

    test('a task posted by a developer account is claimed, computed and paid by the sample worker', async () => {
      const market = new MarketClient(upJson.market!, 30_000);
      const rpc = new RpcClient(upJson.nodes[1]!.rpc, 5_000);
      const creator = upJson.accounts.find((a) => a.name === 'account-0')!;
      const worker = upJson.accounts.find((a) => a.name === 'market-worker')!;
      const order = {
        challenge_type: 'synthetic' as const,
        payload: { generator: 'tabular', count: 10, seed: 7 },
        reward: coins(3) + 1n,
      };
      const body = await fundedRequest(rpc, await market.info(), hexToBytes(creator.private_key!), order);
      const created = await market.createTask(body);
      // pending, or already in_progress: the sample worker (polling every 500 ms) may claim the
      // task between the block that makes it and the answer (docs/MARKET.md, POST /tasks:
      // "pending (or later, if it moved on meanwhile)"); seen in about one post in five.
      assert.ok(
        ['pending', 'in_progress'].includes(created.status),
        `task ${created.task_id} is ${created.status}`,
      );
      let seen = 'no answer';
      const done = await waitFor(
        'the sample worker to complete the task',
        60_000,
        async () => {
          const t = await market.task(created.task_id);
          seen = `${t.status}, worker ${t.worker_address}, payouts ${t.payouts.map((p) => p.status).join(' ')}`;
          return t.status === 'completed' && t.payouts.every((p) => p.status === 'confirmed') ? t : null;
        },
        { seen: () => seen },
      ).catch(async (e: Error) => {
        // What the worker and the market did, for a failure seen only in CI's output.
        const tails = await Promise.all(['market-worker', 'market'].map((n) => logTail(n)));
        throw new Error(`${e.message}\n${tails.join('\n')}`);
      });
      assert.equal(done.result?.worker_address, worker.address);
      assert.equal(done.result?.result_hash, sampleResultHash(done));
      const toWorker = done.payouts.find((p) => p.share === 'worker')!;
      assert.equal(BigInt(toWorker.amount), (order.reward * 25n) / 100n);
      assert.equal(toWorker.to_address, worker.address);
    });

    test('logs market and logs market-worker print their log records', async () => {
      const expected = {
        market: ['market listening'],
        'market-worker': ['sample worker running', 'result submitted'],
      };
      for (const [name, msgs] of Object.entries(expected)) {
        const r = await devnetCli(['logs', name, '--home', home]);
        assert.equal(r.code, 0, r.stderr);
        const seen = r.stdout
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { msg: string }).msg);
        for (const m of msgs) assert.ok(seen.includes(m), `${name} logged "${m}": ${seen.join(' | ')}`);
      }
    });

    test("a failed run keeps the market's and the worker's logs beside the nodes'", async () => {
      // What a failed testkit run (Testnet.stop, the reaper) writes: on every runtime, a task that
      // never completes has the logs of the two programs that explain it kept too.
      const kept = join(dir, 'kept');
      await keepLogs(await Devnet.open(home), kept, { 'why.txt': 'a test\n' });
      const files = (await readdir(kept)).sort();
      for (const f of [
        'market-status.json',
        'market-worker.log',
        'market.log',
        'status.json',
        'validator-0.log',
        'validator-1.log',
      ])
        assert.ok(files.includes(f), `${f} kept: ${files.join(', ')}`);
      const status = JSON.parse(await readFile(join(kept, 'market-status.json'), 'utf8')) as MarketStatus;
      assert.equal(status.state, 'running');
      assert.equal(status.worker, 'running');
      assert.equal(status.up, true);
      const expected = { market: 'market listening', 'market-worker': 'result submitted' };
      for (const [name, msg] of Object.entries(expected)) {
        const text = await readFile(join(kept, `${name}.log`), 'utf8');
        assert.ok(text.includes(`"msg":"${msg}"`), `${name}.log holds "${msg}":\n${text.slice(-2_000)}`);
      }
    });

    test('down removes the market and its worker with the nodes; every port free again', async () => {
      const r = await devnetCli(['down', '--home', home]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(await processesMentioning(home), []);
      if (o.leftovers) assert.deepEqual(await o.leftovers(home), []);
      for (const p of allPorts(base, 2, false, false, true))
        assert.ok(await portFree(p), `port ${p} is free again`);
    });
  });
}

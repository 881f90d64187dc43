/**
 * The same checks for every runtime, through the `devnet` command as a user runs it: up, status,
 * Prometheus scraping every node, a transfer seen on every node, a node added that syncs, kill
 * and restart, pause and resume, disconnect and connect, the whole devnet stopped and resumed
 * (resumeChecks.ts), logs, and down leaving nothing behind.
 * One devnet per runtime, torn down also when a check fails; a failed check keeps every node's log
 * (the testkit's logs folder: TESTKIT_LOGS_DIR, else ./testkit-logs). On a runtime of several
 * machines (swarm) the validators must be spread over all of them.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { portFree } from '@chain-devnet/kit/ports';
import { processesMentioning } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { Devnet } from '../../src/devnet/devnet.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { AddJson, StatusJson, TxJson, UpJson } from '../../src/json/jsonShapes.js';
import type { RuntimeKind } from '../../src/runtime/runtime.js';
import { allPorts } from '../../src/spec/ports.js';
import { defaultLogsDir, keepLogs, stamp } from '../../src/testkit/nodeLogs.js';
import { resumeChecks } from './resumeChecks.js';

export interface RuntimeSuiteOptions {
  readonly runtime: RuntimeKind;
  /** Things left behind by the runtime besides processes (containers, networks, volumes). */
  readonly leftovers?: (home: string) => Promise<string[]>;
  readonly skip?: string | false;
  /** The machines the runtime spreads nodes over (swarm); absent: one machine, every port on 127.0.0.1. */
  readonly machines?: number;
  /** Tests of this runtime only, run on the suite's devnet after the common ones and before down. */
  readonly more?: (devnet: SuiteDevnet) => void;
  /**
   * How long the whole devnet stays stopped (resumeChecks.ts); default 10 s. The swarm runtime's
   * is longer than an epoch (its pause test: the testkit's pause tests run on process and docker).
   */
  readonly pauseMs?: number;
}

/** The suite's devnet, for a runtime's own tests. */
export interface SuiteDevnet {
  readonly home: () => string;
  readonly base: () => number;
  readonly cli: (...args: string[]) => ReturnType<typeof devnetCli>;
  readonly heightOf: (name: string) => Promise<number>;
  readonly bound: (blocks: number) => number;
}

export const BLOCK_MS = 500;

export function runtimeSuite(o: RuntimeSuiteOptions): void {
  describe(`devnet on the ${o.runtime} runtime`, { skip: o.skip ?? false }, () => {
    let dir = '';
    let home = '';
    let base = 0;
    let upJson: UpJson;
    const cli = (...args: string[]) => devnetCli([...args, '--home', home]);
    const json = <T>(...args: string[]) => devnetJson<T>([...args, '--home', home]);
    /** Every node's RPC by name: the ones `up` printed, and the one `add` printed. */
    const rpcOf = new Map<string, string>();
    const client = (name: string) => new RpcClient(rpcOf.get(name)!, 5_000);
    const heightOf = async (name: string) => (await client(name).status()).height;
    const headerOf = async (name: string, h: number) => JSON.stringify((await client(name).block(h)).header);
    const bound = (blocks: number) => 20_000 + blocks * BLOCK_MS * 4;
    /** `name` reaches the height validator-0 is past now. */
    const catchesUp = async (name: string) => {
      const target = (await heightOf('validator-0')) + 1;
      await waitFor(`${name} to catch up`, bound(8), async () => (await heightOf(name)) >= target);
    };
    const peersOf = async (name: string) =>
      (await json<StatusJson>('status')).nodes.find((n) => n.name === name)!.peers;
    /**
     * A node let back is connected again to every other node: catching up needs one peer, and a
     * node left with few falls off the network at the next fault that takes those.
     */
    const everyPeerBack = async (name: string) => {
      const others = (await json<StatusJson>('status')).nodes.length - 1;
      await waitFor(
        `${name} to have its ${others} peers back`,
        bound(10),
        async () => (await peersOf(name)) === others,
      );
    };

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), `devnet-${o.runtime}-`));
      home = join(dir, 'home');
      base = await freeDevnetBase(6);
    });

    after(async () => {
      // Always: whatever failed, nothing of this devnet stays.
      await devnetCli(['down', '--home', home]);
      await rm(dir, { recursive: true, force: true });
    });
    // What the nodes said when a check failed (in CI the logs are all there is to go on).
    afterEach(async (t) => {
      // A test's `passed` (Node 20.12 and later) is not in @types/node yet.
      const ran = t as unknown as { passed?: boolean; diagnostic(message: string): void };
      if (ran.passed !== false || home === '') return;
      const kept = await Devnet.open(home)
        .then((d) => keepLogs(d, join(defaultLogsDir(), `${o.runtime}-suite-${stamp()}`)))
        .catch((e: Error) => `nowhere (${e.message})`);
      ran.diagnostic(`every node's log kept in ${kept}`);
    });

    test('up: every node has a final block, endpoints and funded accounts are printed', async () => {
      upJson = await json<UpJson>(
        'up',
        '--runtime',
        o.runtime,
        '--validators',
        '4',
        '--block-time',
        `${BLOCK_MS}ms`,
        '--base-port',
        String(base),
        '--seed',
        `suite-${o.runtime}`,
      );
      for (const n of upJson.nodes) rpcOf.set(n.name, n.rpc);
      assert.equal(upJson.runtime, o.runtime);
      // One machine: every RPC on 127.0.0.1; several: on the machine each node runs on, at its planned port.
      assert.deepEqual(
        upJson.nodes.map((n) => [n.name, o.machines === undefined ? n.rpc : new URL(n.rpc).port]),
        [0, 1, 2, 3].map((i) => [
          `validator-${i}`,
          o.machines === undefined ? `http://127.0.0.1:${base + i}` : String(base + i),
        ]),
      );
      assert.equal(upJson.accounts.length, 3);
      for (const n of upJson.nodes) assert.ok((await heightOf(n.name)) >= 1, `${n.name} has a final block`);
    });

    test('status: every node up, on one chain, with peers, all ACTIVE', async () => {
      const s = await waitFor('every node up with 3 peers', bound(10), async () => {
        const st = await json<StatusJson>('status');
        return st.nodes.every((n) => n.up && n.peers === 3) ? st : null;
      });
      assert.equal(s.nodes.length, 4);
      for (const n of s.nodes) {
        assert.equal(n.state, 'running', n.name);
        assert.equal(n.validatorStatus, 'ACTIVE', n.name);
        assert.equal(n.disconnected, false, n.name);
        assert.equal(n.rpc, rpcOf.get(n.name), `${n.name}: status and up give one RPC URL`);
      }
      if (o.machines === undefined) assert.deepEqual(new Set(s.nodes.map((n) => n.machine)), new Set([null]));
      else
        assert.equal(
          new Set(s.nodes.map((n) => n.machine ?? 'none')).size,
          o.machines,
          `the validators are spread over all ${o.machines} machines: ${s.nodes.map((n) => `${n.name} on ${n.machine}`).join(', ')}`,
        );
      // Same chain: the block at the lowest height seen is the same everywhere (its header,
      // signature included, is the block's identity; /block has no hash field of its own).
      const h = Math.min(...s.nodes.map((n) => n.height!));
      const headers = await Promise.all(s.nodes.map((n) => headerOf(n.name, h)));
      assert.equal(new Set(headers).size, 1, `one block at height ${h}:\n${headers.join('\n')}`);
    });

    test('monitoring: Prometheus scrapes every node, labelled with its name', async (t) => {
      const prometheus = upJson.monitoring.prometheus;
      if (prometheus === null) return t.skip(`no Prometheus: ${upJson.monitoring.notes.join('; ')}`);
      const names = upJson.nodes.map((n) => n.name).sort();
      let seen = '';
      await waitFor(
        'every node up in Prometheus',
        bound(20),
        async () => {
          const r = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent('up{job="chain"}')}`);
          const body = (await r.json()) as {
            data: { result: { metric: { node?: string }; value: [number, string] }[] };
          };
          const up = body.data.result.filter((x) => x.value[1] === '1').map((x) => x.metric.node ?? '?');
          seen = up.sort().join(', ');
          return JSON.stringify(up) === JSON.stringify(names);
        },
        { seen: () => seen },
      );
    });

    test('tx send: a transfer is confirmed and its balance is the same on every node', async () => {
      const to = upJson.accounts[1]!;
      const before = BigInt((await client('validator-0').balance(to.address)).balance);
      const r = await json<TxJson>(
        'tx',
        'send',
        '--from',
        'account-0',
        '--to',
        'account-1',
        '--amount',
        '2.5coin',
        '--node',
        'validator-2',
      );
      assert.equal(r.receipt?.status, 'confirmed');
      const expected = before + 2_500_000_000_000_000_000n;
      for (const n of upJson.nodes)
        await waitFor(
          `${n.name} to show the transfer of block ${r.receipt.block_height}`,
          bound(4),
          async () => BigInt((await client(n.name).balance(to.address)).balance) === expected,
        );
    });

    test('add: a new node joins the running devnet and syncs', async () => {
      const r = await json<AddJson>('add');
      assert.equal(r.name, 'validator-4');
      if (o.machines === undefined) assert.equal(r.rpc, `http://127.0.0.1:${base + 4}`);
      else assert.equal(new URL(r.rpc).port, String(base + 4));
      const target = (await heightOf('validator-0')) + 2;
      const added = new RpcClient(r.rpc, 5_000);
      await waitFor(
        `validator-4 at height ${target}`,
        bound(6),
        async () => (await added.status()).height >= target,
      );
      const h = target - 1;
      assert.equal(
        JSON.stringify((await added.block(h)).header),
        await headerOf('validator-0', h),
        `validator-4 and validator-0 have the same block at height ${h}`,
      );
      rpcOf.set(r.name, r.rpc);
    });

    test('kill and start: a crashed validator comes back and catches up', async () => {
      assert.equal((await cli('kill', 'validator-3')).code, 0);
      const st = await json<StatusJson>('status');
      const killed = st.nodes.find((n) => n.name === 'validator-3')!;
      assert.equal(killed.state, 'stopped');
      // How its run ended, from the CLI (a halt's 3 and a refused store's 4 are seen so too).
      assert.equal(killed.exitCode, 137, 'status --json: killed, 128 + SIGKILL');
      // 3 of 4 validators go on.
      const h0 = await heightOf('validator-0');
      await waitFor(
        'the chain to go on without validator-3',
        bound(8),
        async () => (await heightOf('validator-0')) >= h0 + 3,
      );
      assert.equal((await cli('start', 'validator-3')).code, 0);
      await catchesUp('validator-3');
      const back = (await json<StatusJson>('status')).nodes.find((n) => n.name === 'validator-3')!;
      assert.equal(back.exitCode, null, 'a running node has no exit code');
    });

    test('restart: stop then start, and the node catches up', async () => {
      assert.equal((await cli('restart', 'validator-1')).code, 0);
      await catchesUp('validator-1');
    });

    test('pause and resume: a frozen node answers nothing, then catches up', async () => {
      assert.equal((await cli('pause', 'validator-2')).code, 0);
      const st = await json<StatusJson>('status');
      const paused = st.nodes.find((n) => n.name === 'validator-2')!;
      assert.equal(paused.state, 'paused');
      assert.equal(paused.up, false);
      const h0 = await heightOf('validator-0');
      await waitFor(
        'the chain to go on without validator-2',
        bound(6),
        async () => (await heightOf('validator-0')) >= h0 + 2,
      );
      assert.equal((await cli('resume', 'validator-2')).code, 0);
      await catchesUp('validator-2');
    });

    // A node let back must have every peer again (everyPeerBack), not just catch up: on docker,
    // nodes once handed out an address their peers could not reach, and a node let back regained
    // only some peers for minutes; a later fault that took those then stalled the validators left.
    test('partition: a node kept apart stalls while the others go on; healed, it catches up', async () => {
      const d = await Devnet.open(home);
      const all = await d.peers();
      const others = all.map((p) => p.name).filter((n) => n !== 'validator-1');
      await d.faults.partition([['validator-1'], others], all);
      const st = await json<StatusJson>('status');
      // A partition is not a disconnect: no node is shown cut off.
      assert.deepEqual(
        st.nodes.filter((n) => n.disconnected).map((n) => n.name),
        [],
      );
      await waitFor(
        'validator-1 to lose its peers',
        bound(10),
        async () => (await peersOf('validator-1')) === 0,
      );
      const cut = await heightOf('validator-1');
      await waitFor('the others to go on', bound(8), async () => (await heightOf('validator-0')) >= cut + 3);
      assert.ok(
        (await heightOf('validator-1')) <= cut + 1,
        'the node kept apart made no progress of its own',
      );
      await d.faults.partition(null, all);
      const target = (await heightOf('validator-0')) + 1;
      await waitFor(
        'validator-1 to catch up',
        bound(10),
        async () => (await heightOf('validator-1')) >= target,
      );
      await everyPeerBack('validator-1');
    });

    test('disconnect and connect: a cut-off node falls behind, then catches up', async () => {
      assert.equal((await cli('disconnect', 'validator-1')).code, 0);
      const st = await json<StatusJson>('status');
      assert.equal(st.nodes.find((n) => n.name === 'validator-1')!.disconnected, true);
      assert.deepEqual(
        st.nodes.filter((n) => n.disconnected).map((n) => n.name),
        ['validator-1'],
      );
      await waitFor(
        'validator-1 to lose its peers',
        // On Docker the cut connections just go quiet; libp2p's ping closes them within about
        // 27 s (node/src/p2p/network.ts, CONNECTION_MONITOR).
        bound(10),
        async () => (await peersOf('validator-1')) === 0,
      );
      const cut = await heightOf('validator-1');
      await waitFor('the others to go on', bound(8), async () => (await heightOf('validator-0')) >= cut + 3);
      assert.ok(
        (await heightOf('validator-1')) <= cut + 1,
        'the disconnected node made no progress of its own',
      );
      assert.equal((await cli('connect', 'validator-1')).code, 0);
      const target = (await heightOf('validator-0')) + 1;
      await waitFor(
        'validator-1 to catch up',
        bound(10),
        async () => (await heightOf('validator-1')) >= target,
      );
      await everyPeerBack('validator-1');
    });

    resumeChecks({ home: () => home, bound, pauseMs: o.pauseMs ?? 5 * BLOCK_MS * 4 });

    o.more?.({ home: () => home, base: () => base, cli, heightOf, bound });

    test('logs: the last lines of a node, as JSON log records', async () => {
      const r = await cli('logs', 'validator-0', '--tail', '3');
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines.length, 3);
      for (const line of lines) assert.ok(typeof (JSON.parse(line) as { msg: string }).msg === 'string');
    });

    test('down: no process, container, network, volume, port or file of the devnet remains', async () => {
      const r = await cli('down');
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(await processesMentioning(home), []);
      if (o.leftovers) assert.deepEqual(await o.leftovers(home), []);
      await assert.rejects(stat(home), 'the home folder is removed');
      for (const p of allPorts(base, 5, true)) assert.ok(await portFree(p), `port ${p} is free again`);
      const again = await cli('status');
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /no devnet in/);
    });
  });
}

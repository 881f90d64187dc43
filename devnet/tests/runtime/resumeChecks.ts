/**
 * The runtime suite's stop-all and resume (runtimeSuite.ts, every runtime): `devnet stop` with no
 * node, status `stopped`, a pause, `devnet start`; every node goes on from its height with what it
 * held (chainPicture.ts), the first blocks after the resume decided in round 0 (no slot missed:
 * every node was started before any could make progress), nobody jailed, every node connected to
 * every other again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pause, waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { devnetJson } from '../../src/harness/cli.js';
import type { NodeOpJson, StatusJson } from '../../src/json/jsonShapes.js';
import { assertHeld, chainPicture, roundsAfter } from '../support/chainPicture.js';

export interface ResumeContext {
  readonly home: () => string;
  readonly bound: (blocks: number) => number;
  /** How long the devnet stays stopped (ms). */
  readonly pauseMs: number;
}

export function resumeChecks(c: ResumeContext): void {
  const json = <T>(...args: string[]) => devnetJson<T>([...args, '--home', c.home()]);
  /** The status once every node is up and connected to every other. */
  const wholeNetwork = (what: string) =>
    waitFor(what, c.bound(20), async () => {
      const st = await json<StatusJson>('status');
      return st.nodes.every((n) => n.up && n.peers === st.nodes.length - 1) ? st : null;
    });

  test('stop and start the whole devnet: it goes on from its height with its state, no slot missed', async () => {
    // How long each step takes, for docs/BENCHMARKS.md (no check on it).
    const took = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
    let t0 = Date.now();
    const running = await wholeNetwork('every node up with its peers');
    console.log(`# every node up with its peers: ${took(t0)}`);
    assert.equal(running.status, 'running');
    const accounts = [...running.accounts.map((a) => a.address), ...running.nodes.map((n) => n.address)];
    const rewarded = new Set(running.nodes.map((n) => n.address));
    const delegator = running.accounts[0]!.address;
    const picture = (rpc: string) => chainPicture(new RpcClient(rpc, 5_000), rpc, accounts, delegator);
    const first = running.nodes[0]!.rpc;
    const before = await picture(first);

    t0 = Date.now();
    assert.deepEqual(await json<NodeOpJson>('stop'), { node: 'all', done: 'stop' });
    console.log(`# devnet stop: ${took(t0)}`);
    const stopped = await json<StatusJson>('status');
    assert.equal(stopped.status, 'stopped');
    for (const n of stopped.nodes) {
      assert.notEqual(n.state, 'running', `${n.name} is stopped`);
      assert.equal(n.up, false, `${n.name} answers nothing`);
    }
    await pause(c.pauseMs);
    t0 = Date.now();
    assert.deepEqual(await json<NodeOpJson>('start'), { node: 'all', done: 'start' });
    console.log(`# devnet start: ${took(t0)}`);
    const started = await json<StatusJson>('status');
    assert.equal(started.status, 'running');
    const resumedAt = Math.max(
      ...(await Promise.all(started.nodes.map(async (n) => (await picture(n.rpc)).height))),
    );
    for (const n of started.nodes) assertHeld(before, await picture(n.rpc), n.name, rewarded);
    // Decided in round 0, from the picture's height to past the resume: each block's proposer
    // proposed in time, so no slot is counted missed across the stop.
    const count = resumedAt + 3 - before.height;
    const rounds = await roundsAfter(new RpcClient(first, 5_000), before.height, count, c.bound(10));
    assert.deepEqual(
      rounds,
      rounds.map(() => 0),
      `blocks ${before.height + 1}..${before.height + count} were decided in rounds ${rounds}`,
    );
    console.log(`# the state and rounds checked: ${took(t0)} after the start began`);
    // And the network is whole again: nodes started at once can miss each other's first dials
    // (on docker an added node kept one peer of four for good, and in CI none at all).
    t0 = Date.now();
    await wholeNetwork('every node back with all its peers');
    console.log(`# every node back with all its peers: ${took(t0)}`);
  });
}

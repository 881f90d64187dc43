/**
 * The RPC's routes are declared once (rpc/routes.ts): the server registers exactly the table, and
 * the client builds every URL it requests from the same table.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Router } from '@koa/router';
import { txToJson } from '../../../src/chain/index.js';
import { RpcClient } from '../../../src/client/rpcClient.js';
import { type RouteName, RPC_ROUTES, routeNames, routePath } from '../../../src/rpc/routes.js';
import { genesisState, key, tx } from '../../fixtures.js';
import { brokenApp } from '../../support/harness.js';

/** A client that records what it would request instead of requesting it. */
class RecordingClient extends RpcClient {
  readonly requests: string[] = [];
  protected override async request(method: string, path: string): Promise<string> {
    this.requests.push(`${method} ${path}`);
    return '{}';
  }
  protected override async requestBytes(method: string, path: string) {
    this.requests.push(`${method} ${path}`);
    return { bytes: new Uint8Array(0), headers: new Headers() };
  }
}

const ADDRESS = key('alice').account;
const HASH = 'ab'.repeat(32);

describe('the RPC route table', () => {
  it('is what the server registers, in its order (HEAD comes with GET)', () => {
    const app = brokenApp();
    const router = app.middleware
      .map((m) => (m as { router?: Router }).router)
      .find((r): r is Router => r !== undefined);
    assert.ok(router, 'the app has a router');
    const registered = router.stack.map(
      (layer) => `${layer.methods.filter((m) => m !== 'HEAD').join(',')} ${layer.path}`,
    );
    assert.deepEqual(
      registered,
      routeNames().map((n) => `${RPC_ROUTES[n].method} ${RPC_ROUTES[n].path}`),
    );
  });

  it('is what the client builds its URLs from', async () => {
    const c = new RecordingClient('');
    const calls: Record<Exclude<RouteName, 'evidence'>, () => Promise<unknown>> = {
      status: () => c.status(),
      block: () => c.block(7),
      commit: () => c.commit(7),
      balance: () => c.balance(ADDRESS),
      validators: () => c.validators(),
      delegations: () => c.delegations(ADDRESS),
      rewards: () => c.rewards(ADDRESS),
      unbonding: () => c.unbonding(ADDRESS),
      supply: () => c.supply(),
      snapshots: () => c.snapshots(),
      snapshot: () => c.snapshot(7),
      snapshotContent: () => c.snapshotContent(7),
      metrics: () => c.metrics(),
      sendTx: () => c.sendTx(txToJson(tx(genesisState(), 'alice', 'TRANSFER', { to: ADDRESS, amount: 1n }))),
      sendTxs: () => c.sendTxs([tx(genesisState(), 'alice', 'TRANSFER', { to: ADDRESS, amount: 1n })]),
      receipt: () => c.receipt(HASH),
      upgrades: () => c.upgrades(),
      netProbe: () => c.netProbe('12D3KooW', 0),
    };
    const params = { height: 7, address: ADDRESS, hash: HASH };
    for (const name of routeNames()) {
      if (name === 'evidence') continue;
      c.requests.length = 0;
      await calls[name]();
      assert.deepEqual(c.requests, [`${RPC_ROUTES[name].method} ${routePath(name, params)}`], name);
    }
    // GET /evidence has no method of its own: the testkit reads it with get('/evidence').
    assert.deepEqual(
      routeNames().filter((n) => !Object.hasOwn(calls, n)),
      ['evidence'],
    );
  });

  it('fills a path from its parameters as written', () => {
    assert.equal(routePath('commit', { height: 12 }), '/block/12/commit');
    assert.equal(routePath('delegations', { address: ADDRESS }), `/delegator/${ADDRESS}/delegations`);
    assert.equal(routePath('receipt', { hash: HASH }), `/tx/${HASH}/receipt`);
    assert.equal(routePath('status', {}), '/status');
  });
});

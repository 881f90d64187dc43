/**
 * What the save-and-restore tests across runtimes share (acrossRuntimes.test.ts, and the swarm's
 * in swarmCrossing.ts): devnets brought up by `devnet up` as a user runs it, their nodes' RPC as
 * `up` printed them, the state root every node has at a height, and the check that a restored
 * devnet has the saved root and goes on (new blocks, a transfer confirmed).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { SaveJson, StatusJson, TxJson, UpJson } from '../../src/json/jsonShapes.js';

export class Crossing {
  /** Each devnet's nodes' RPC by name, by home. */
  private readonly rpcs = new Map<string, Map<string, string>>();
  readonly homes: string[] = [];

  constructor(
    private readonly dir: () => string,
    readonly blockMs: number,
  ) {}

  bound(blocks: number): number {
    return 30_000 + blocks * this.blockMs * 4;
  }

  /** Takes every devnet this made down (an `after`). */
  async downAll(): Promise<void> {
    for (const h of this.homes) await devnetCli(['down', '--home', h]);
  }

  /** A devnet made elsewhere (a suite's), its nodes' RPC read from its status. */
  async adopt(home: string): Promise<void> {
    const st = await devnetJson<StatusJson>(['status', '--home', home]);
    this.rpcs.set(home, new Map(st.nodes.map((n) => [n.name, n.rpc])));
  }

  /** `devnet up ARGS` in a new home at a free base port (`nodes` and monitoring's ports free). */
  async upOn(
    name: string,
    args: string[],
    o: { nodes?: number; monitoring?: boolean; swarm?: boolean } = {},
  ): Promise<string> {
    const home = join(this.dir(), name);
    this.homes.push(home);
    const base = await freeDevnetBase(o.nodes ?? 4, o.monitoring ?? false);
    const r = await devnetJson<UpJson>([
      'up',
      ...args,
      '--base-port',
      String(base),
      '--no-ui',
      '--home',
      home,
    ]);
    this.rpcs.set(home, new Map(r.nodes.map((n) => [n.name, n.rpc])));
    // Every validator at its planned port (on 127.0.0.1, or on its machine on a swarm).
    for (const n of r.nodes.filter((x) => /^validator-[0-3]$/.test(x.name))) {
      const url = new URL(n.rpc);
      assert.equal(url.port, String(base + Number(n.name.slice(-1))), n.name);
      if (o.swarm !== true) assert.equal(url.hostname, '127.0.0.1', n.name);
    }
    return home;
  }

  async rootAt(home: string, h: number): Promise<(readonly [string, string])[]> {
    return Promise.all(
      [...this.rpcs.get(home)!].map(
        async ([name, rpc]) => [name, (await new RpcClient(rpc, 5_000).block(h)).header.state_root] as const,
      ),
    );
  }

  /** The one state root every node has at `h`. */
  async oneRootAt(home: string, h: number): Promise<string> {
    const roots = await this.rootAt(home, h);
    assert.equal(
      new Set(roots.map(([, r]) => r)).size,
      1,
      `one state root at height ${h}: ${JSON.stringify(roots)}`,
    );
    return roots[0]![1];
  }

  async save(home: string, file: string): Promise<{ save: SaveJson; at: number }> {
    const save = await devnetJson<SaveJson>(['save', join(this.dir(), file), '--home', home]);
    const at = Math.min(...Object.values(save.heights).map((h) => h ?? 0));
    assert.ok(at >= 2, `saved at height ${at}`);
    return { save, at };
  }

  async transferConfirmed(home: string): Promise<void> {
    const send = 'tx send --from account-0 --to account-1 --amount 1coin'.split(' ');
    const r = await devnetJson<TxJson>([...send, '--home', home]);
    assert.equal(r.receipt?.status, 'confirmed');
  }

  /** Every node of the restored devnet: the saved state root at the saved height, then new blocks and a transfer. */
  async goesOnFrom(home: string, save: SaveJson, root: string, at: number): Promise<void> {
    for (const [name, r] of await this.rootAt(home, at))
      assert.equal(r, root, `${name}: the state root at height ${at}`);
    const top = Math.max(...Object.values(save.heights).map((h) => h ?? 0));
    await waitFor(`every node past height ${top + 3}`, this.bound(10), async () => {
      const hs = await Promise.all(
        [...this.rpcs.get(home)!.values()].map(
          async (rpc) => (await new RpcClient(rpc, 2_000).status()).height,
        ),
      );
      return hs.every((h) => h > top + 3);
    });
    await this.transferConfirmed(home);
  }
}

/**
 * GET /snapshots/{height}/content and fetchVerifiedSnapshot over real HTTP (issue 27, a devnet
 * forked from a running network): the content is the stored gzip file byte for byte, its hash in
 * X-Snapshot-Hash; bad heights are 400, unknown ones 404. The light client takes the newest
 * snapshot below the head, or the one asked for, and proves it by the committed headers; a lying
 * source (a proxy in front of an honest node that rewrites one answer) is refused naming the check
 * that failed: content not hashing to its listed hash, a forged state whose root is not the
 * header's (with a coherent list and header hash), a commit of the next block without its
 * quorum, a block h+1 that does not follow block h.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { decodeSnapshot, encodeSnapshot, stateRoot } from '../../../src/chain/index.js';
import { RpcClient } from '../../../src/client/rpcClient.js';
import {
  chooseSnapshotHeight,
  fetchVerifiedSnapshot,
  SnapshotSourceError,
} from '../../../src/client/verifiedSnapshot.js';
import { genesisOf, key } from '../../fixtures.js';
import { type Harness, makeHarness } from '../../support/harness.js';

/** A proxy to `target` whose answer to a path `rewrite` names is replaced (status 200). */
async function lyingProxy(
  target: string,
  rewrite: (path: string, body: Buffer) => Buffer | null,
): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const answer = await fetch(`${target}${req.url}`);
    const body = Buffer.from(await answer.arrayBuffer());
    const lie = answer.ok ? rewrite(req.url ?? '', body) : null;
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(lie ?? body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const json = (b: Buffer) => JSON.parse(b.toString()) as Record<string, unknown>;

describe('snapshot content over the RPC, and its verification', () => {
  let h: Harness;
  let url = '';
  const servers: Server[] = [];
  before(async () => {
    h = await makeHarness();
    // Epoch length 10 (the fixtures'): snapshots at 10 and 20, block 21 proves 20.
    while (h.service.state.height < 23) await h.produce();
    url = await h.listen();
  });
  after(async () => {
    for (const s of servers) s.close();
    await h.close();
  });
  const proxy = async (rewrite: (path: string, body: Buffer) => Buffer | null) => {
    const p = await lyingProxy(url, rewrite);
    servers.push(p.server);
    return new RpcClient(p.url, 5000);
  };

  it('serves the stored gzip file byte for byte, with its hash; 400 on a bad height, 404 on an unknown one', async () => {
    const client = new RpcClient(url, 5000);
    const stored = await h.service.snapshotFile(20);
    const { file, hash } = await client.snapshotContent(20);
    assert.deepEqual(Buffer.from(file), Buffer.from(stored!.file));
    assert.equal(hash, stored!.record.hash);
    const res = await fetch(`${url}/snapshots/20/content`);
    assert.equal(res.headers.get('content-type'), 'application/gzip');
    assert.equal(res.headers.get('x-snapshot-height'), '20');
    for (const [path, status, detail] of [
      ['/snapshots/abc/content', 400, 'Invalid height: expected a non-negative integer'],
      ['/snapshots/-1/content', 400, 'Invalid height: expected a non-negative integer'],
      ['/snapshots/99999999999999999999/content', 400, 'Invalid height: expected a non-negative integer'],
      ['/snapshots/15/content', 404, 'Snapshot not found'],
    ] as const) {
      const r = await fetch(`${url}${path}`);
      assert.equal(r.status, status, path);
      assert.deepEqual(await r.json(), { detail }, path);
    }
    const post = await fetch(`${url}/snapshots/20/content`, { method: 'POST' });
    assert.equal(post.status, 405);
  });

  it('takes the newest snapshot below the head by default, or the one asked for, proven by the next block', async () => {
    const client = new RpcClient(url, 5000);
    const v = await fetchVerifiedSnapshot(client, null);
    assert.equal(v.height, 20);
    const block20 = (await client.block(20)) as { header: { state_root: string } };
    assert.equal(v.blockHash, v.state.lastBlockHash);
    assert.equal(block20.header.state_root, stateRoot(v.state));
    assert.equal(v.hash, (await client.snapshot(20)).hash);
    assert.equal((await fetchVerifiedSnapshot(client, 10)).height, 10);
    await assert.rejects(
      fetchVerifiedSnapshot(client, 15),
      /keeps no snapshot at height 15 \(it keeps: 20, 10\)/,
    );
  });

  it('chooses a height: none yet, the newest below the head, one not followed by a committed block', () => {
    assert.match(String(chooseSnapshotHeight([], 5, null)), /keeps no snapshot below its height 5 yet/);
    assert.equal(chooseSnapshotHeight([10, 20, 30], 30, null), 20);
    assert.match(
      String(chooseSnapshotHeight([10, 20], 20, 20)),
      /block 21 is not committed on the source yet/,
    );
    assert.equal(chooseSnapshotHeight([10, 20], 21, 20), 20);
  });

  it('refuses content that does not hash to the listed hash', async () => {
    const client = await proxy((path, body) => {
      if (!path.endsWith('/content')) return null;
      body.writeUInt8(body.readUInt8(body.length - 9) ^ 0xff, body.length - 9);
      return body;
    });
    const e = await fetchVerifiedSnapshot(client, 20).catch((x: unknown) => x);
    assert.ok(e instanceof SnapshotSourceError);
    assert.match(e.message, /snapshot 20: its content is refused: (corrupt gzip|snapshot hash)/);
  });

  it('refuses a forged state whose root is not the header state_root, its hash listed coherently', async () => {
    const honest = decodeSnapshot(
      (await h.service.snapshotFile(20))!.file,
      (await h.service.snapshot(20))!.hash,
    ).state;
    const alice = key('alice').account;
    const forged = encodeSnapshot({
      ...honest,
      accounts: new Map([
        ...honest.accounts,
        [alice, { ...honest.accounts.get(alice)!, balance: 10n ** 30n }],
      ]),
    });
    const client = await proxy((path) => {
      if (path === '/snapshots/20/content') return Buffer.from(forged.file);
      if (path === '/snapshots')
        return Buffer.from(JSON.stringify({ snapshots: [{ height: 20, hash: forged.info.hash }] }));
      return null;
    });
    await assert.rejects(
      fetchVerifiedSnapshot(client, 20),
      /snapshot 20 is not proven: restored state root \w+ differs from block 20's state_root \w+/,
    );
  });

  it('refuses a commit of block h+1 without more than 2/3 of the validators', async () => {
    const client = await proxy((path, body) =>
      path === '/block/21/commit' ? Buffer.from(JSON.stringify({ ...json(body), signatures: [] })) : null,
    );
    await assert.rejects(fetchVerifiedSnapshot(client, 20), /snapshot 20 is not proven: commit 21 refused: /);
  });

  it('refuses a block h+1 that does not follow block h', async () => {
    const block22 = Buffer.from(JSON.stringify(await new RpcClient(url, 5000).block(22)));
    const client = await proxy((path) => (path === '/block/21' ? block22 : null));
    await assert.rejects(
      fetchVerifiedSnapshot(client, 20),
      /snapshot 20 is not proven: blocks 20 and 22 served for a snapshot at 20/,
    );
  });

  it("the source's genesis as the anchor: its validators signed, so the snapshot is taken", async () => {
    assert.equal((await fetchVerifiedSnapshot(new RpcClient(url, 5000), 20, genesisOf())).height, 20);
  });

  it('a trusted genesis whose validators did not sign is refused', async () => {
    const other = genesisOf({ validators: ['someone-else'] });
    await assert.rejects(
      fetchVerifiedSnapshot(new RpcClient(url, 5000), 20, other),
      /snapshot 20 is not proven: .*(chain|genesis validators)/,
    );
  });
});

/**
 * `devnet up --fork` against a source that answers without end (issue 39): each answer is read up
 * to its endpoint's bound and refused past it, naming the URL and the bound, before anything of
 * the devnet is made. A source streaming `/status` took the command to 2.4 GB and a crash. The
 * source is a server of this test on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ANSWER_BOUNDS } from '@chain-devnet/node/client';
import { DevnetError } from '../../src/base/errors.js';
import { fetchForkState } from '../../src/fork/source.js';
import { devnetCli } from '../../src/harness/cli.js';
import type { ErrorJson } from '../../src/json/jsonShapes.js';

/** What the source gives: GB of `/status`, or a fine status and a `/snapshots` that says it is 3 GB. */
type Source = 'endless-status' | 'huge-snapshots';

describe('devnet up --fork: every answer of the source is bounded', { timeout: 120_000 }, () => {
  let dir = '';
  let server: Server;
  let url = '';
  let mode: Source = 'endless-status';
  /** Bytes of the endless status written before the client hung up. */
  let written = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-fork-bounds-'));
    server = createServer((req, res) => {
      req.resume();
      res.on('error', () => undefined);
      if (req.url === '/status' && mode === 'endless-status') {
        written = 0;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"height": 10, "network": "devnet", "last_hash": "');
        const chunk = Buffer.alloc(64 * 1024, 'a');
        // Up to 4 GiB, as fast as the client reads (a cap that a test that goes wrong still meets).
        const more = () => {
          while (!res.destroyed && written < 4 * 1024 ** 3) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      } else if (req.url === '/status') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"height": 10, "last_hash": "00", "network": "devnet", "mempool_size": 0, "epoch": 0}');
      } else {
        // A header that says 3 GB, and no body.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 3_000_000_000 });
        res.flushHeaders();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('an endless /status is refused at its bound, naming the URL and the bound', async () => {
    mode = 'endless-status';
    const before = process.memoryUsage().rss;
    await assert.rejects(fetchForkState({ url, height: null }), (e: unknown) => {
      assert.ok(e instanceof DevnetError, String(e));
      assert.equal(e.code, 'BAD_FORK');
      assert.match(
        e.message,
        new RegExp(
          `^--fork ${url}: refused: ${url}/status: the answer is longer than ${ANSWER_BOUNDS.status} bytes`,
        ),
      );
      return true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(written < 64 * 1024 * 1024, `the source wrote ${written} bytes before the fork hung up`);
    assert.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024, 'the memory it took is bounded');
  });

  test('a /snapshots that says it is 3 GB is refused without reading it', async () => {
    mode = 'huge-snapshots';
    await assert.rejects(fetchForkState({ url, height: null }), (e: unknown) => {
      assert.ok(e instanceof DevnetError, String(e));
      assert.match(
        e.message,
        new RegExp(`${url}/snapshots: the answer is longer than ${ANSWER_BOUNDS.snapshots} bytes`),
      );
      return true;
    });
  });

  test('the command says so and exits 1, with nothing of the devnet made', async () => {
    mode = 'endless-status';
    const home = join(dir, 'home');
    const r = await devnetCli(['up', '--fork', url, '--runtime', 'process', '--home', home, '--json'], {
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 1, r.stderr);
    const { error } = JSON.parse(r.stdout) as ErrorJson;
    assert.equal(error.code, 'BAD_FORK');
    assert.match(error.message, /\/status: the answer is longer than 1048576 bytes/);
    await assert.rejects(access(home), 'no home made');
  });
});

/**
 * Answers given before a request's body has arrived (413 over the limit, 400 for a wrong
 * Content-Type, 503 while the state loads) reach clients that send their whole body before
 * reading, over a real socket: a raw one and Python's urllib. A client that never stops sending
 * is cut off by the lingering bounds (time and bytes).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type Harness, makeHarness } from '../../support/harness.js';
import { chunkedBody, sendAllThenRead, socketTo, writeAll } from '../../support/rawHttp.js';

const MiB = 1024 * 1024;
const TOO_LARGE = { detail: 'Request body too large: the limit is 65536 bytes' };

function bodyOf(answer: string): unknown {
  const at = answer.indexOf('\r\n\r\n');
  return at < 0 ? null : JSON.parse(answer.slice(at + 4));
}

/** POSTs `size` bytes with Python's urllib, which sends the whole body before it reads. */
async function urllibPost(url: string, contentType: string, size: number): Promise<unknown> {
  const script = `
import json, sys, urllib.request, urllib.error
url, ctype, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
req = urllib.request.Request(url, data=b"x" * size, headers={"Content-Type": ctype})
try:
    with urllib.request.urlopen(req, timeout=20) as r:
        print(json.dumps({"status": r.status, "body": json.loads(r.read())}))
except urllib.error.HTTPError as e:
    print(json.dumps({"status": e.code, "body": json.loads(e.read())}))
except Exception as e:
    print(json.dumps({"error": repr(e)}))
`;
  const { stdout } = await promisify(execFile)('python3', ['-c', script, url, contentType, String(size)], {
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

async function withServer(
  open: boolean,
  rpc: Parameters<typeof makeHarness>[3],
  run: (url: string, h: Harness) => Promise<void>,
): Promise<void> {
  const h = await makeHarness({}, {}, open, rpc);
  try {
    await run(await h.listen(), h);
  } finally {
    await h.close();
  }
}

describe('an answer given before the body arrived reaches a client that reads only after sending', () => {
  it('413 to a 5 MiB body with Content-Length, sent whole on a raw socket before reading', () =>
    withServer(true, {}, async (url) => {
      const head = `POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${5 * MiB}\r\n\r\n`;
      const out = await sendAllThenRead(url, head, Buffer.alloc(5 * MiB, 0x78));
      assert.equal(out.writeError, null, 'the server let the client send its whole body');
      assert.match(out.answer, /^HTTP\/1\.1 413 /);
      assert.match(out.answer, /\r\nConnection: close\r\n/i);
      assert.deepEqual(bodyOf(out.answer), TOO_LARGE);
      assert.equal(out.ended, 'end', 'closed cleanly, not reset');
    }));

  it('413 to a 5 MiB chunked body (the limit found while reading), sent whole before reading', () =>
    withServer(true, {}, async (url) => {
      const head =
        'POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      const out = await sendAllThenRead(url, head, chunkedBody(Buffer.alloc(5 * MiB, 0x78)));
      assert.equal(out.writeError, null, 'the server let the client send its whole body');
      assert.match(out.answer, /^HTTP\/1\.1 413 /);
      assert.deepEqual(bodyOf(out.answer), TOO_LARGE);
      assert.equal(out.ended, 'end', 'closed cleanly, not reset');
    }));

  it('503 Node not initialized to a 5 MiB body while the state loads', () =>
    withServer(false, {}, async (url) => {
      const head = `POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${5 * MiB}\r\n\r\n`;
      const out = await sendAllThenRead(url, head, Buffer.alloc(5 * MiB, 0x78));
      assert.equal(out.writeError, null);
      assert.match(out.answer, /^HTTP\/1\.1 503 /);
      assert.match(out.answer, /\r\nConnection: close\r\n/i, 'closed once the body is read, not kept alive');
      assert.deepEqual(bodyOf(out.answer), { detail: 'Node not initialized' });
      assert.equal(out.ended, 'end');
    }));

  it("Python's urllib gets the 413 and its detail for 5 MiB, and the 400 for a wrong Content-Type", () =>
    withServer(true, {}, async (url) => {
      assert.deepEqual(await urllibPost(`${url}/tx/send`, 'application/json', 5 * MiB), {
        status: 413,
        body: TOO_LARGE,
      });
      assert.deepEqual(await urllibPost(`${url}/tx/send`, 'text/plain', 5 * MiB), {
        status: 400,
        body: { detail: 'Invalid transaction format' },
      });
    }));

  it('keeps the connection open after an answer to a body read in full', () =>
    withServer(true, {}, async (url) => {
      const body = '{"tx_type":"TRANSFER"}';
      const head = `POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const socket = await socketTo(url);
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (d: string) => {
          text += d;
          if (text.includes('}')) resolve(text);
        });
        socket.write(head + body);
      });
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.doesNotMatch(answer, /Connection: close/i);
      assert.equal(socket.destroyed, false);
      socket.destroy();
    }));
});

/**
 * A client that keeps sending a chunked body after the answer, reading as it goes; bounded by
 * the test (15 s, 512 MiB). Resolves with the answer, the bytes it sent and when the server
 * closed the connection, counted from the answer.
 */
async function endlessSender(url: string, piece: number, pauseMs: number) {
  const socket = await socketTo(url);
  let answer = '';
  let answeredAt = 0;
  let closedAt = 0;
  let sent = 0;
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    answer += d;
    answeredAt ||= performance.now();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedAt = performance.now();
      resolve();
    }),
  );
  const started = performance.now();
  let open = await writeAll(
    socket,
    'POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
  );
  const frame = Buffer.concat([
    Buffer.from(`${piece.toString(16)}\r\n`),
    Buffer.alloc(piece, 0x78),
    Buffer.from('\r\n'),
  ]);
  while (open && performance.now() - started < 15_000 && sent < 512 * MiB) {
    open = await writeAll(socket, frame);
    if (open) sent += piece;
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
  const cutOff = !open;
  socket.destroy();
  await closed;
  return { answer, sent, cutOff, lingeredMs: closedAt - answeredAt };
}

describe('a client that never stops sending costs a bounded time and bytes', () => {
  it('a slow sender is cut off once the lingering time is over', () =>
    withServer(true, { lingerMs: 400 }, async (url) => {
      const out = await endlessSender(url, 1024, 20);
      assert.match(out.answer, /^HTTP\/1\.1 413 /, 'the answer came first');
      assert.deepEqual(bodyOf(out.answer), TOO_LARGE);
      assert.ok(out.cutOff, 'the server closed the connection');
      assert.ok(
        out.lingeredMs >= 300 && out.lingeredMs < 3_000,
        `closed ${out.lingeredMs} ms after the answer`,
      );
      assert.ok(out.sent < 2 * MiB, 'far below the byte bound: the time bound cut it');
    }));

  it('a fast sender is cut off once the lingering byte count is over', () =>
    withServer(true, { lingerMs: 60_000, lingerBytes: 2 * MiB }, async (url) => {
      const out = await endlessSender(url, 64 * 1024, 0);
      assert.match(out.answer, /^HTTP\/1\.1 413 /);
      assert.ok(out.cutOff, `the server closed the connection (the client sent ${out.sent} bytes)`);
      // What the client got into the kernel's buffers on top of the 2 MiB discarded is bounded
      // by them (a few MiB on loopback), far below what it would send in 15 s.
      assert.ok(out.sent < 64 * MiB, `the client sent ${out.sent} bytes`);
    }));
});

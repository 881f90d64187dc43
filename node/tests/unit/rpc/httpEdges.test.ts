/**
 * Requests that Node's HTTP server used to answer itself, with an empty body or not at all,
 * before any RPC code ran (found by the fuzz, rpcFuzz.test.ts): each now gets a JSON
 * `{"detail"}` answer, over a real socket.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Harness, makeHarness } from '../../support/harness.js';
import { exchange, type RawResponse, sendAllThenRead } from '../../support/rawHttp.js';

describe("requests Node's HTTP server refuses get a {detail} answer", () => {
  let h: Harness;
  let url: string;
  before(async () => {
    h = await makeHarness({}, {}, true, { requestTimeoutMs: 1_000 });
    url = await h.listen();
  });
  after(() => h.close());

  async function send(request: string, head = false): Promise<RawResponse> {
    const x = await exchange(url, Buffer.from(request, 'latin1'), head, 10_000);
    assert.ok(x.answered, `no answer: ${x.answered ? '' : x.why}`);
    return x.response;
  }

  function assertDetail(res: RawResponse, status: number, detail: string | RegExp): void {
    assert.equal(res.status, status);
    assert.match(res.headers.get('content-type')?.[0] ?? '', /^application\/json/);
    const body = JSON.parse(res.body.toString()) as { detail: string };
    assert.deepEqual(Object.keys(body), ['detail']);
    if (typeof detail === 'string') assert.equal(body.detail, detail);
    else assert.match(body.detail, detail);
  }

  it('a malformed request whose 5 MiB body is sent whole before reading: the client gets the 400', async () => {
    const out = await sendAllThenRead(
      url,
      `POST /tx/send HTTP/1.1\r\nHost: x\r\nX-Bad: \u0001\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n`,
      Buffer.alloc(5 * 1024 * 1024, 0x78),
    );
    assert.equal(out.writeError, null, 'the server read on after its answer');
    assert.match(
      out.answer,
      /^HTTP\/1\.1 400 [\s\S]*\{"detail":"Malformed HTTP request: Invalid header value char"\}$/,
    );
    assert.equal(out.ended, 'end');
  });

  it('a header value with a control character: 400 with the parser’s reason', async () => {
    const res = await send('GET /status HTTP/1.1\r\nHost: x\r\nX-Bad: \u0001\r\n\r\n');
    assertDetail(res, 400, 'Malformed HTTP request: Invalid header value char');
    assert.equal(res.headers.get('connection')?.[0], 'close');
  });

  it('Content-Length and Transfer-Encoding together (request smuggling): 400', async () => {
    const res = await send(
      'POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    assertDetail(res, 400, /^Malformed HTTP request: /);
  });

  it('headers over 16 KiB: 431', async () => {
    const res = await send(`GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    assertDetail(res, 431, 'Request header fields too large: the limit is 16 KiB');
  });

  it('chunk extensions over 16 KiB: 413', async () => {
    const res = await send(
      `POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    );
    assertDetail(res, 413, 'Chunk extensions too large');
  });

  it('an HTTP/1.1 request without Host: 400 Missing Host header', async () => {
    assertDetail(await send('GET /status HTTP/1.1\r\n\r\n'), 400, 'Missing Host header');
    // HTTP/1.0 has no Host requirement.
    assert.equal((await send('GET /status HTTP/1.0\r\n\r\n')).status, 200);
  });

  it('CONNECT: 405, not a dropped connection', async () => {
    const res = await send('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n');
    assertDetail(res, 405, 'Method CONNECT not allowed');
  });

  it('a method no route has (COPY, PROPFIND): 405 with Allow, not 501; off the routes 404', async () => {
    for (const method of ['COPY', 'PROPFIND']) {
      const res = await send(`${method} /status HTTP/1.1\r\nHost: x\r\n\r\n`);
      assertDetail(res, 405, /^Method [A-Z]+ not allowed; allowed: /);
      assert.match(res.headers.get('allow')?.[0] ?? '', /GET/);
    }
    assertDetail(await send('COPY /nowhere HTTP/1.1\r\nHost: x\r\n\r\n'), 404, 'Not found');
  });

  it('an expectation other than 100-continue is ignored: the request is answered as usual', async () => {
    const res = await send('GET /status HTTP/1.1\r\nHost: x\r\nExpect: x\r\n\r\n');
    assert.equal(res.status, 200);
    assert.equal(typeof (JSON.parse(res.body.toString()) as { height: unknown }).height, 'number');
  });

  it('a malformed body under Upgrade headers (hidden by Node 20’s parser) is answered 408, not left hanging', async () => {
    const started = performance.now();
    const res = await send(
      'POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    assertDetail(res, 408, 'Request timeout: the request did not arrive in time');
    // The request timeout here is 1 s, checked every second.
    assert.ok(performance.now() - started < 5_000);
  });

  it('a well-formed body under Upgrade headers is read: the upgrade is ignored', async () => {
    const res = await send(
      'POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: 2\r\n\r\n{}',
    );
    assertDetail(res, 400, 'Invalid transaction format');
  });
});

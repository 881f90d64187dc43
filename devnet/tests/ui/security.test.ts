/**
 * Who may use the panel, without a browser: the secret on every /api request, Host (no DNS
 * rebinding), Origin and Sec-Fetch-Site (no other page), no CORS header, the headers that keep
 * the page from being framed or fed inline code; bad bodies refused with a detail; errors
 * translated once, never with a stack. And the secret itself: random, per devnet, mode 600.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Layout } from '../../src/base/layout.js';
import { ensureSecret, readSecret, secretFile, secretMatches } from '../../src/panel/secret.js';
import { SECRET, startTestPanel, type TestPanel, withSecret } from './panelHttp.js';

const KILL = { method: 'POST', path: '/api/nodes/validator-2/kill' } as const;

/** A JSON POST to the panel, with its secret unless `secret` is false. */
function postJson(panel: TestPanel, path: string, body: string, secret = true) {
  const json = { 'content-type': 'application/json' };
  return panel.request({ method: 'POST', path, headers: secret ? withSecret(json) : json, body });
}

describe('the panel refuses whoever is not the panel itself', () => {
  let panel: TestPanel;
  before(async () => {
    panel = await startTestPanel();
  });
  after(() => panel.close());

  test('an action without the secret, or with a wrong one of the same length, is 403 and is not run', async () => {
    for (const headers of [
      {},
      { 'x-devnet-panel-secret': `${SECRET.slice(0, -1)}x` },
      { 'x-devnet-panel-secret': '' },
    ]) {
      const r = await panel.request({ ...KILL, headers });
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.match(JSON.parse(r.body).detail, /needs the panel's secret in the x-devnet-panel-secret header/);
    }
    assert.deepEqual(panel.calls, []);
    const ok = await panel.request({ ...KILL, headers: withSecret() });
    assert.equal(ok.status, 200, ok.body);
    assert.deepEqual(JSON.parse(ok.body), { node: 'validator-2', done: 'kill' });
    assert.deepEqual(panel.calls, ['kill validator-2']);
    panel.calls.length = 0;
  });

  test('the whole devnet stopped and started from the panel: with the secret only, unknown operations 404', async () => {
    for (const op of ['stop', 'start']) {
      const without = await panel.request({ method: 'POST', path: `/api/devnet/${op}` });
      assert.equal(without.status, 403);
      const r = await panel.request({ method: 'POST', path: `/api/devnet/${op}`, headers: withSecret() });
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(JSON.parse(r.body), { node: 'all', done: op });
    }
    const unknown = await panel.request({ method: 'POST', path: '/api/devnet/kill', headers: withSecret() });
    assert.equal(unknown.status, 404);
    assert.deepEqual(panel.calls, ['stop the devnet', 'start the devnet']);
    panel.calls.length = 0;
  });

  test('reads need the secret too: the event stream and the health check', async () => {
    for (const path of ['/api/events', '/api/health']) {
      const r = await panel.request({ path });
      assert.equal(r.status, 403, path);
    }
    const health = await panel.request({ path: '/api/health', headers: withSecret() });
    assert.deepEqual(JSON.parse(health.body), { ok: true });
  });

  test('a Host that is not 127.0.0.1:PORT or localhost:PORT is refused, secret or not (DNS rebinding)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${panel.port}`,
      `127.0.0.1:${panel.port + 1}`,
      '127.0.0.1',
      `[::1]:${panel.port}`,
    ]) {
      const r = await panel.request({ ...KILL, headers: withSecret({ host }) });
      assert.equal(r.status, 403, host);
      assert.match(JSON.parse(r.body).detail, /is not this panel: open http:\/\/127\.0\.0\.1:/, host);
    }
    const page = await panel.request({ path: '/', headers: { host: `evil.example:${panel.port}` } });
    assert.equal(page.status, 403, 'the page itself is not served under a foreign name either');
    assert.deepEqual(panel.calls, []);
    for (const host of [`localhost:${panel.port}`, `LOCALHOST:${panel.port}`, `127.0.0.1:${panel.port}`]) {
      const r = await panel.request({ path: '/api/health', headers: withSecret({ host }) });
      assert.equal(r.status, 200, host);
    }
  });

  test('a request without any Host (HTTP/1.0) is refused with a detail', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(panel.port, '127.0.0.1', () =>
        socket.end(`GET /api/health HTTP/1.0\r\nx-devnet-panel-secret: ${SECRET}\r\n\r\n`),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (text += c));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.[01] 403/);
    assert.match(answer, /"detail":"Host \(none\) is not this panel/);
  });

  test('another Origin, a null Origin or a cross-site fetch is refused, secret or not', async () => {
    for (const headers of [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `http://127.0.0.1:${panel.port + 1}` },
      { origin: `https://127.0.0.1:${panel.port}` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const r = await panel.request({ ...KILL, headers: withSecret(headers) });
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.ok(JSON.parse(r.body).detail.length > 0);
    }
    assert.deepEqual(panel.calls, []);
    const own = await panel.request({
      ...KILL,
      headers: withSecret({ origin: `http://localhost:${panel.port}`, 'sec-fetch-site': 'same-origin' }),
    });
    assert.equal(own.status, 200, own.body);
    panel.calls.length = 0;
  });

  test('no answer carries a CORS header, a preflight included; every one forbids framing and inline code', async () => {
    const answers = [
      await panel.request({ path: '/' }),
      await panel.request({ path: '/panel.js' }),
      await panel.request({ ...KILL, headers: withSecret() }),
      await panel.request({ ...KILL }),
      await panel.request({
        method: 'OPTIONS',
        path: KILL.path,
        headers: {
          origin: 'http://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-devnet-panel-secret',
        },
      }),
    ];
    panel.calls.length = 0;
    for (const a of answers) {
      for (const name of Object.keys(a.headers))
        assert.ok(!name.startsWith('access-control-'), `${name} on a ${a.status}`);
      assert.match(
        String(a.headers['content-security-policy']),
        /default-src 'none'; script-src 'self'; style-src 'self'/,
      );
      assert.match(String(a.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.equal(a.headers['x-frame-options'], 'DENY');
      assert.equal(a.headers['x-content-type-options'], 'nosniff');
      assert.equal(a.headers['referrer-policy'], 'no-referrer');
    }
    assert.equal(answers[4]!.status, 403, 'the preflight has no secret');
  });

  test('the page is served without the secret (it carries none) and only its three files', async () => {
    const page = await panel.request({ path: '/' });
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<script type="module" src="\/panel.js"><\/script>/);
    assert.doesNotMatch(page.body, /<script>|<style|\son[a-z]+=|javascript:/i, 'no inline code');
    for (const path of ['/panel.css', '/panel.js'])
      assert.equal((await panel.request({ path })).status, 200, path);
    for (const path of [
      '/index.html/../../package.json',
      '/../secret',
      '/%2e%2e/ui/secret',
      '/secret',
      '/panel.js.map',
    ])
      assert.equal((await panel.request({ path })).status, 404, path);
  });

  test('bad action bodies are 4xx naming the problem; an unknown node 404 with its code; a bug 500 without its stack', async () => {
    const send = (body: string, type = 'application/json') =>
      panel.request({
        method: 'POST',
        path: '/api/tx/send',
        headers: withSecret({ 'content-type': type }),
        body,
      });
    const cases: [Awaited<ReturnType<typeof send>>, number, RegExp][] = [
      [
        await send('{"from":"account-0","to":"account-1","amount":"1coin"}', 'text/plain'),
        415,
        /Content-Type must be application\/json/,
      ],
      [await send('{"from":'), 400, /the body is not JSON/],
      [await send('{"from":"account-0","to":"account-1"}'), 400, /amount is required/],
      [
        await send('{"from":"account-0","to":"account-1","amount":"1coin","private_key":"00"}'),
        400,
        /private_key is not a field/,
      ],
      [await send('{"from":"account-0","to":"account-1","amount":7}'), 400, /amount must be string/],
      [
        await send(JSON.stringify({ from: 'a', to: 'b', amount: '1', memo: 'x'.repeat(20_000) })),
        413,
        /too large: the limit is 16384 bytes/,
      ],
    ];
    for (const [r, status, detail] of cases) {
      assert.equal(r.status, status, r.body);
      assert.match(JSON.parse(r.body).detail, detail);
    }
    const unknownOp = await panel.request({
      method: 'POST',
      path: '/api/nodes/validator-0/explode',
      headers: withSecret(),
    });
    assert.equal(unknownOp.status, 404);
    assert.match(JSON.parse(unknownOp.body).detail, /no node operation explode/);
    const nobody = await panel.request({
      method: 'POST',
      path: '/api/nodes/nobody/kill',
      headers: withSecret(),
    });
    assert.equal(nobody.status, 404);
    assert.deepEqual(JSON.parse(nobody.body), {
      detail: 'no node named nobody in this devnet',
      code: 'UNKNOWN_NODE',
    });
    const bug = await panel.request({
      method: 'POST',
      path: '/api/nodes/broken/kill',
      headers: withSecret(),
    });
    assert.equal(bug.status, 500);
    assert.match(JSON.parse(bug.body).detail, /^Internal error: see the panel log/);
    assert.doesNotMatch(bug.body, /a bug with a stack|at .*\.js/);
    const wrongMethod = await panel.request({
      method: 'DELETE',
      path: '/api/tx/send',
      headers: withSecret(),
    });
    assert.equal(wrongMethod.status, 405);
    assert.match(JSON.parse(wrongMethod.body).detail, /Method DELETE not allowed; allowed: POST/);
    assert.deepEqual(panel.calls, []);
  });

  test('a well-formed transfer, add and save reach the actions', async () => {
    const t = await panel.request({
      method: 'POST',
      path: '/api/tx/send',
      headers: withSecret({ 'content-type': 'application/json' }),
      body: JSON.stringify({ from: 'account-0', to: 'account-1', amount: '1.5coin' }),
    });
    assert.equal(t.status, 200, t.body);
    const a = await panel.request({
      method: 'POST',
      path: '/api/nodes',
      headers: withSecret({ 'content-type': 'application/json' }),
      body: '{"name":"extra","stake":"100coin"}',
    });
    assert.equal(a.status, 200, a.body);
    const saved = await panel.request({ method: 'POST', path: '/api/save', headers: withSecret() });
    assert.equal(saved.status, 200, saved.body);
    const unsaved = await panel.request({ method: 'POST', path: '/api/save' });
    assert.equal(unsaved.status, 403, 'saving needs the secret too');
    assert.deepEqual(panel.calls, ['transfer 1.5coin account-0 account-1', 'add extra 100coin', 'save']);
  });

  test('network conditions and partitions reach the actions; a bad body names its field, and the secret is needed', async () => {
    panel.calls.length = 0;
    const post = (path: string, body: string, secret = true) => postJson(panel, path, body, secret);
    const set = await post(
      '/api/net',
      '{"node":"validator-1","latency":"100ms","to":["validator-2"],"direction":"in"}',
    );
    assert.equal(set.status, 200, set.body);
    const ring = await post('/api/partition', '{"shape":"ring"}');
    assert.equal(ring.status, 200, ring.body);
    const bad = await post('/api/net', '{"node":"validator-1","delay":"1s"}');
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.body).detail, /delay is not a field/);
    const badShape = await post('/api/partition', '{"shape":"square"}');
    assert.equal(badShape.status, 400);
    assert.match(JSON.parse(badShape.body).detail, /shape must be equal to one of the allowed values/);
    assert.equal((await post('/api/net', '{"clear":true}', false)).status, 403);
    assert.deepEqual(panel.calls, [
      'net validator-1 {"node":"validator-1","latency":"100ms","to":["validator-2"],"direction":"in"}',
      'partition {"shape":"ring"}',
    ]);
  });

  test('disk faults reach the actions; a bad body names its field, and the secret is needed', async () => {
    panel.calls.length = 0;
    const post = (body: string, secret = true) => postJson(panel, '/api/disk', body, secret);
    const full = await post('{"node":"validator-1","full":true}');
    assert.equal(full.status, 200, full.body);
    assert.equal(JSON.parse(full.body).full, true);
    const unknown = await post('{"node":"validator-1","fast":true}');
    assert.equal(unknown.status, 400);
    assert.match(JSON.parse(unknown.body).detail, /fast is not a field/);
    const noNode = await post('{"full":true}');
    assert.equal(noNode.status, 400);
    assert.match(JSON.parse(noNode.body).detail, /node/);
    assert.equal((await post('{"node":"validator-1","clear":true}', false)).status, 403);
    assert.deepEqual(panel.calls, ['disk {"node":"validator-1","full":true}']);
  });
  test("the chain's time reaches the actions in the scenario's words; a bad body names its field", async () => {
    panel.calls.length = 0;
    const post = (path: string, body: string, secret = true) => postJson(panel, path, body, secret);
    const pause = await post('/api/chain', '"pause"');
    assert.equal(pause.status, 200, pause.body);
    assert.equal(JSON.parse(pause.body).hold, true);
    assert.equal(JSON.parse(pause.body).height, 7);
    assert.equal((await post('/api/chain', '{"mine":5}')).status, 200);
    for (const [body, why] of [
      ['{"mine":0}', /^mine must be >= 1$/],
      ['"stop"', /^the body is none of the forms it takes: devnet chain: pause/],
      ['{"mine":2,"time":"+1h"}', /^the body is none of the forms it takes/],
      ['{"at":-1}', /^at must be >= 0$/],
    ] as const) {
      const bad = await post('/api/chain', body);
      assert.equal(bad.status, 400, body);
      assert.match(JSON.parse(bad.body).detail, why, body);
    }
    const skew = await post('/api/clock', '{"node":"validator-1","skew":"+3s"}');
    assert.equal(skew.status, 200, skew.body);
    assert.equal(JSON.parse(skew.body).clock_skew_ms['validator-1'], 3000);
    const noSkew = await post('/api/clock', '{"node":"validator-1"}');
    assert.equal(noSkew.status, 400);
    assert.match(JSON.parse(noSkew.body).detail, /skew is required/);
    assert.equal((await post('/api/chain', '"resume"', false)).status, 403);
    assert.deepEqual(panel.calls, [
      'chain "pause"',
      'chain {"mine":5}',
      'clock {"node":"validator-1","skew":"+3s"}',
    ]);
  });
});

describe('the panel secret', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'panel-secret-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('made once per devnet: 32 random bytes, base64url, mode 600; the same on every later read', async () => {
    const a = new Layout(join(dir, 'a'));
    const b = new Layout(join(dir, 'b'));
    assert.equal(await readSecret(a), null);
    const [s1, s2] = await Promise.all([ensureSecret(a), ensureSecret(a)]);
    assert.equal(s1, s2, 'two commands making it at once agree');
    assert.match(s1, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(s1, 'base64url').length, 32);
    assert.equal(await ensureSecret(a), s1);
    assert.equal(await readSecret(a), s1);
    assert.equal((await stat(secretFile(a))).mode & 0o777, 0o600);
    assert.notEqual(await ensureSecret(b), s1, 'another devnet, another secret');
  });

  test('matches only itself, whatever the length of what was presented', () => {
    assert.ok(secretMatches(SECRET, SECRET));
    for (const wrong of [
      undefined,
      '',
      SECRET.slice(1),
      `${SECRET}x`,
      SECRET.toLowerCase(),
      `${SECRET.slice(0, -1)}A`,
    ])
      assert.equal(secretMatches(SECRET, wrong), false, String(wrong));
  });
});

/**
 * A stream of malformed and hostile requests against a real node process: random bytes,
 * deep nesting, huge numbers, wrong types, invalid signatures, replayed nonces, oversized
 * bodies, odd methods and paths. No 5xx, no crash, and blocks keep coming.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { coins, txToJson } from '../../src/chain/index.js';
import { buildTx } from '../../src/client/txBuilder.js';
import { hexToBytes } from '../../src/crypto/hex.js';
import { prng } from '../support/prng.js';
import { cleanup, initHome, startNodeProcess, waitForHeight } from '../support/processes.js';

after(cleanup);

describe('hostile input', () => {
  it('answers every hostile request below 500 and keeps producing blocks', async () => {
    const home = await initHome(['--block-time', '200ms']);
    const node = await startNodeProcess(home, ['--block-time', '200ms']);
    const accounts = JSON.parse(await readFile(join(home, 'accounts.json'), 'utf8')) as {
      private_key: string;
      address: string;
    }[];
    const key = hexToBytes(accounts[0]!.private_key);
    const good = txToJson(
      await buildTx(node.client, {
        type: 'TRANSFER',
        privateKey: key,
        to: accounts[1]!.address,
        amount: coins(1),
        chainId: 'chain-devnet-1',
        timestamp: 1,
      }),
    );
    const rand = prng(20261121);
    const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
    const flip = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);

    const bodies: (string | Buffer)[] = [
      JSON.stringify(good),
      JSON.stringify(good), // duplicate
      JSON.stringify({ ...good, signature: flip(good.signature) }),
      JSON.stringify({ ...good, nonce: 0, amount: '2' }), // same nonce, different tx
      JSON.stringify({ ...good, nonce: 999 }),
      JSON.stringify({ ...good, amount: '1'.repeat(5000) }),
      JSON.stringify({ ...good, nonce: 1e308 }),
      JSON.stringify({ ...good, nonce: 2 ** 60 }),
      JSON.stringify({ ...good, amount: { $gt: 0 } }),
      JSON.stringify({ ...good, payload: { memo: { nested: true } } }),
      JSON.stringify({ ...good, __proto__: { polluted: true } }),
      '{"constructor":{"prototype":{"x":1}}}',
      '['.repeat(50_000),
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      `{"a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_001)}`,
      '"just a string"',
      'null',
      '12345678901234567890123456789012345678901234567890',
      '\u0000\u0001\u0002',
      Buffer.from([0xff, 0xfe, 0xfd, 0x7b, 0x7d]),
      'x'.repeat(200_000),
    ];
    for (let i = 0; i < 150; i++) bodies.push(randomBytes(1 + Math.floor(rand() * 2000)));
    for (let i = 0; i < 50; i++) {
      const field = Object.keys(good)[Math.floor(rand() * Object.keys(good).length)]!;
      const values = [null, true, -1, 1.5, '', 'zz', [], {}, '9'.repeat(80), 2 ** 53];
      bodies.push(JSON.stringify({ ...good, [field]: values[Math.floor(rand() * values.length)] }));
    }

    const statuses = new Map<number, number>();
    const note = (status: number, what: string) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      assert.ok(status < 500, `${what} answered ${status}`);
    };
    for (const [i, body] of bodies.entries()) {
      const res = await fetch(`${node.url}/tx/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(5000),
      });
      const text = await res.text();
      note(res.status, `body #${i}`);
      assert.doesNotMatch(text, /\bat .*\.js:\d+/, `body #${i} leaked a stack trace`);
      assert.doesNotThrow(() => JSON.parse(text), `body #${i} answer is JSON`);
    }
    for (const [method, path] of [
      ['GET', '/block/99999999999999999999999'],
      ['GET', '/balance/%00%ff'],
      ['GET', `/balance/${'a'.repeat(10_000)}`],
      ['GET', '/tx/%zz/receipt'],
      ['PUT', '/tx/send'],
      ['PATCH', '/validators'],
      ['GET', '/../../etc/passwd'],
      ['GET', '/snapshots/-1'],
      ['OPTIONS', '/status'],
    ] as const) {
      const res = await fetch(`${node.url}${path}`, { method, signal: AbortSignal.timeout(5000) });
      await res.text();
      note(res.status, `${method} ${path}`);
    }

    const height = (await node.client.status()).height;
    await waitForHeight(node, height + 3, 10_000);
    assert.ok(node.program.running, 'the node is still running');
    assert.ok(
      (statuses.get(400) ?? 0) > 200,
      `most bodies were refused as malformed: ${JSON.stringify([...statuses])}`,
    );
  });
});

describe('oversized bodies', () => {
  it('answers 413 to a chunked body over the limit, on a real socket', async () => {
    const home = await initHome();
    const node = await startNodeProcess(home);
    const { hostname, port } = new URL(node.url);
    const { connect } = await import('node:net');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /tx/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        const chunk = 'x'.repeat(16 * 1024);
        for (let i = 0; i < 8; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        text += d;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', (e) => (text ? resolve(text) : reject(e)));
      setTimeout(() => socket.destroy(), 5000);
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /"detail":"Request body too large: the limit is 65536 bytes"/);
    assert.ok(node.program.running, 'the node is still running');
  });
});

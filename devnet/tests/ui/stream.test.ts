/**
 * The event stream without a browser: a page gets the snapshot first and then every change in
 * order, as many pages as connect (up to the bound) get the same; a page that stops reading is
 * dropped once its unsent bytes pass the bound, while the others go on; the store keeps only its
 * bounds (blocks, samples, log lines, actions) however long it runs.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { EventHub, encodeEvent } from '../../src/ui/hub.js';
import { Ring } from '../../src/ui/ring.js';
import type { BlockRow, PanelEventName, PanelEvents, Sample } from '../../src/ui/shapes.js';
import { PanelStore } from '../../src/ui/store.js';
import { SNAPSHOT, startTestPanel, type TestPanel, withSecret } from './panelHttp.js';

/** An open stream: the events parsed as they come, and the response to pause or end it. */
interface Listener {
  readonly events: { name: string; data: unknown }[];
  readonly res: IncomingMessage;
  close(): void;
}

function listen(panel: TestPanel): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: panel.port,
        path: '/api/events',
        headers: withSecret({ host: `127.0.0.1:${panel.port}` }),
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`HTTP ${res.statusCode}`));
          res.resume();
          return;
        }
        const events: Listener['events'] = [];
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const name = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (name !== undefined && data !== undefined) events.push({ name, data: JSON.parse(data) });
          }
        });
        res.on('error', () => undefined);
        resolve({ events, res, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const block = (height: number): BlockRow => ({
  height,
  hash: height.toString(16).padStart(64, '0'),
  timestamp: 1_700_000_000 + height,
  round: 0,
  proposer: `validator-${height % 4}`,
  txs: 0,
  missed: [],
});

describe('the event stream', () => {
  let panel: TestPanel;
  before(async () => {
    panel = await startTestPanel({ maxClients: 3, maxBufferedBytes: 256 * 1024, heartbeatMs: 60_000 });
  });
  after(() => panel.close());

  test('every page gets the snapshot first, then the changes in the order they were published', async () => {
    const [a, b] = [await listen(panel), await listen(panel)];
    await waitFor(
      'both pages to get their snapshot',
      5_000,
      async () => a.events.length > 0 && b.events.length > 0,
    );
    assert.equal(a.res.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(a.res.headers['cache-control'], 'no-store');
    assert.equal(a.res.headers['x-frame-options'], 'DENY', 'the guard ran before the stream');
    panel.hub.publish('blocks', [block(1)]);
    panel.hub.publish('log', { node: 'validator-0', lines: ['one', 'two'] });
    panel.hub.publish('blocks', [block(2), block(3)]);
    for (const l of [a, b]) {
      await waitFor('the three events', 5_000, async () => l.events.length === 4);
      assert.deepEqual(
        l.events.map((e) => e.name),
        ['snapshot', 'blocks', 'log', 'blocks'],
      );
      assert.deepEqual(l.events[0]!.data, SNAPSHOT);
      assert.deepEqual(
        (l.events[3]!.data as BlockRow[]).map((x) => x.height),
        [2, 3],
      );
    }
    a.close();
    b.close();
    await waitFor('the closed pages to leave the hub', 5_000, async () => panel.hub.size === 0);
  });

  test('a page that stops reading is dropped past the bound; the one that reads gets everything', async () => {
    const slow = await listen(panel);
    const fast = await listen(panel);
    await waitFor('both snapshots', 5_000, async () => slow.events.length > 0 && fast.events.length > 0);
    slow.res.pause();
    // 64 KiB events: the slow page's socket buffers fill, then the hub's bound is passed.
    const big = 'x'.repeat(64 * 1024);
    const before = panel.hub.dropped;
    let lines = 0;
    for (; lines < 200 && panel.hub.dropped === before; lines++) {
      panel.hub.publish('log', { node: 'validator-0', lines: [`${lines} ${big}`] });
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(panel.hub.dropped, before + 1, 'the page that stopped reading was dropped');
    assert.equal(panel.hub.size, 1, 'the other one stays');
    panel.hub.publish('sample', { t: 1, nodes: {}, tps: null, blockInterval: null });
    await waitFor('the reading page to get the sample after all the lines', 10_000, async () =>
      fast.events.some((e) => e.name === 'sample'),
    );
    assert.deepEqual(
      fast.events
        .filter((e) => e.name === 'log')
        .map((e) => (e.data as { lines: string[] }).lines[0]!.split(' ')[0]),
      Array.from({ length: lines }, (_, i) => String(i)),
      'every line, in order',
    );
    slow.close();
    fast.close();
    await waitFor('the hub to be empty', 5_000, async () => panel.hub.size === 0);
  });

  test('one page more than the bound is refused with 503 and a detail', async () => {
    const open = [await listen(panel), await listen(panel), await listen(panel)];
    await waitFor('three pages', 5_000, async () => panel.hub.size === 3);
    const refused = await panel.request({ path: '/api/events', headers: withSecret() });
    assert.equal(refused.status, 503);
    assert.match(JSON.parse(refused.body).detail, /too many pages are open on this panel/);
    for (const l of open) l.close();
    await waitFor('the hub to be empty', 5_000, async () => panel.hub.size === 0);
  });
});

describe('the store keeps its bounds', () => {
  test('blocks: only new heights, the last N; samples and log lines: the last N; each change published once', () => {
    const published: { name: PanelEventName; data: unknown }[] = [];
    const hub = new EventHub({ maxClients: 1, maxBufferedBytes: 1, heartbeatMs: 60_000 });
    hub.publish = <K extends PanelEventName>(name: K, data: PanelEvents[K]) => {
      published.push({ name, data });
    };
    const store = new PanelStore(SNAPSHOT.info, hub, { blocks: 5, samples: 3, logLines: 4, activity: 2 });
    store.addBlocks([block(1), block(2)]);
    store.addBlocks([block(2), block(3)]);
    store.addBlocks([block(1)]);
    for (let h = 4; h <= 20; h++) store.addBlocks([block(h)]);
    const snap = () => store.snapshot();
    assert.deepEqual(
      snap().blocks.map((b) => b.height),
      [16, 17, 18, 19, 20],
    );
    assert.deepEqual(
      published.filter((p) => p.name === 'blocks').map((p) => (p.data as BlockRow[]).map((b) => b.height)),
      [[1, 2], [3], ...Array.from({ length: 17 }, (_, i) => [i + 4])],
      'a block already sent is never sent again',
    );
    for (let t = 0; t < 10; t++)
      store.addSample({ t, nodes: {}, tps: null, blockInterval: null } satisfies Sample);
    assert.deepEqual(
      snap().samples.map((s) => s.t),
      [7, 8, 9],
    );
    store.addLogLines('validator-0', ['a', 'b', 'c']);
    store.addLogLines('validator-0', ['d', 'e', 'f', 'g', 'h', 'i']);
    assert.deepEqual(snap().logs, [{ node: 'validator-0', lines: ['f', 'g', 'h', 'i'] }]);
    store.keepLogsOf([]);
    assert.deepEqual(snap().logs, []);
    for (const [id, status] of [
      [1, 'running'],
      [1, 'done'],
      [2, 'running'],
    ] as const)
      store.addActivity({ id, at: 0, what: `a${id}`, status, detail: null });
    assert.deepEqual(
      snap().activity.map((a) => [a.id, a.status]),
      [
        [1, 'done'],
        [2, 'running'],
      ],
      "an action's last word, in the order they started",
    );
    store.setValidators([]);
    assert.equal(published.filter((p) => p.name === 'validators').length, 0, 'an unchanged list is not sent');
  });

  test('the history from Prometheus goes before the samples of this panel, within the bound', () => {
    const hub = new EventHub({ maxClients: 1, maxBufferedBytes: 1, heartbeatMs: 60_000 });
    const store = new PanelStore(SNAPSHOT.info, hub, { blocks: 5, samples: 4, logLines: 4, activity: 2 });
    const s = (t: number): Sample => ({ t, nodes: {}, tps: null, blockInterval: null });
    store.addSample(s(100));
    store.addHistory([s(97), s(98), s(99), s(100), s(101)]);
    assert.deepEqual(
      store.snapshot().samples.map((x) => x.t),
      [97, 98, 99, 100],
    );
  });

  test('a ring forgets its oldest items and answers for the kept ones only', () => {
    const r = new Ring<number>(3);
    assert.equal(r.last(), undefined);
    assert.equal(r.includes(1), false);
    r.push(1, 2);
    r.push(3, 4, 5, 6, 7);
    assert.deepEqual(r.toArray(), [5, 6, 7]);
    for (let i = 8; i < 100; i++) r.push(i);
    assert.deepEqual(r.toArray(), [97, 98, 99]);
    assert.equal(r.size, 3);
    assert.equal(r.last(), 99);
    assert.equal(r.includes(97), true);
    assert.equal(r.includes(96), false, 'an item forgotten, even if still in the array');
    assert.throws(() => new Ring(0));
  });

  test('an event is one SSE message: its name, its JSON on one line (newlines escaped, big integers as text)', () => {
    const text = encodeEvent('log', { node: 'n', lines: ['a\nb'] });
    assert.equal(text, 'event: log\ndata: {"node":"n","lines":["a\\nb"]}\n\n');
    const v = encodeEvent('validators', [{ big: 10n ** 20n } as never]);
    assert.equal(v, 'event: validators\ndata: [{"big":"100000000000000000000"}]\n\n');
  });
});

/**
 * The panel proven in a real browser (Chromium through playwright-core) against a real devnet
 * brought up by `devnet up`, as a user gets it: the page shows every node with heights that
 * advance; validator-2 killed from the page shows as stopped while the others go on, and
 * started again it catches up, the slots it missed marked in the block stream; a transfer sent
 * from the page is confirmed; the keyboard drives it; no other page, Host or Origin can, nor a
 * request without the secret; no private key reaches the page; it fits 1280×800 and 420 px
 * with readable contrast; no console error; a screenshot kept for CI and checked not blank.
 * `devnet down` removes the panel with the rest. Torn down also when a check fails.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { portFree } from '@chain-devnet/kit/ports';
import { processesMentioning } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import type { Browser, Page } from 'playwright-core';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { StatusJson, UpJson } from '../../src/json/jsonShapes.js';
import type { RuntimeKind } from '../../src/runtime/runtime.js';
import {
  artifactsDir,
  browserMissing,
  imageVariety,
  inPage,
  launchBrowser,
  lowContrastTexts,
} from './browser.js';
import { exactRequest } from './panelHttp.js';

export interface PanelSuiteOptions {
  readonly runtime: RuntimeKind;
  /** With Prometheus the charts come from it; without, from the nodes' /metrics. */
  readonly monitoring: boolean;
  readonly skip?: string | false;
}

const BLOCK_MS = 500;
const bound = (blocks: number) => 30_000 + blocks * BLOCK_MS * 4;

export function panelSuite(o: PanelSuiteOptions): void {
  const missing = o.skip || browserMissing();
  const charts = o.monitoring ? 'Prometheus' : "the nodes' /metrics";
  describe(`the panel in a real browser, on the ${o.runtime} runtime, charts from ${charts}`, {
    skip: missing,
  }, () => {
    let dir = '';
    let home = '';
    let up: UpJson;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];
    const cli = (...args: string[]) => devnetCli([...args, '--home', home]);
    const rpc = (name: string) => new RpcClient(up.nodes.find((n) => n.name === name)!.rpc, 5_000);
    const panelUrl = () => new URL(up.ui!).origin;
    const secret = () => new URL(up.ui!).hash.replace('#secret=', '');
    const row = (name: string) => page.locator(`#nodes-body tr[data-node="${name}"]`);
    const stateOf = (name: string) => row(name).locator('.badge').textContent();
    const heightOn = async (name: string) =>
      Number((await row(name).locator('td[data-label="height"]').textContent()) ?? NaN);
    const shows = (name: string, state: string, blocks = 2) =>
      waitFor(`${name} ${state} on the page`, bound(blocks), async () => (await stateOf(name)) === state);
    /** Presses a node's button on the page and waits until the page shows the state it leads to. */
    const press = async (op: string, name: string, state: string, blocks = 2) => {
      await page.getByRole('button', { name: `${op} ${name}` }).click();
      await shows(name, state, blocks);
    };
    /** Waits until the page shows `name` within a block of every other node. */
    const caughtUp = (name: string) =>
      waitFor(`${name} within a block of the others on the page`, bound(20), async () => {
        const heights = await Promise.all(up.nodes.map((n) => heightOn(n.name)));
        const mine = await heightOn(name);
        return Number.isFinite(mine) && heights.every((h) => Number.isFinite(h) && h - mine <= 1);
      });

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), `panel-${o.runtime}-`));
      home = join(dir, 'home');
      up = await devnetJson<UpJson>([
        'up',
        '--home',
        home,
        '--runtime',
        o.runtime,
        '--validators',
        '4',
        '--block-time',
        `${BLOCK_MS}ms`,
        '--base-port',
        // Room for the node the page adds.
        String(await freeDevnetBase(5)),
        '--seed',
        `panel-${o.runtime}`,
        ...(o.monitoring ? [] : ['--no-monitoring']),
      ]);
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => {
        // The event stream is cut when the page goes away; anything else failing is a problem.
        if (!r.url().endsWith('/api/events'))
          problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
      });
    });

    after(async () => {
      await browser?.close().catch(() => undefined);
      // Always: whatever failed, nothing of this devnet stays.
      await devnetCli(['down', '--home', home]);
      await rm(dir, { recursive: true, force: true });
    });

    test('devnet up printed the panel link with its secret after #; status shows the address without it', async () => {
      assert.ok(up.ui !== null, 'up started a panel');
      assert.match(up.ui, /^http:\/\/127\.0\.0\.1:\d+\/#secret=[A-Za-z0-9_-]{43}$/);
      assert.equal(Number(new URL(up.ui).port), Number(new URL(up.nodes[0]!.rpc).port) + 1092);
      const status = await devnetJson<StatusJson>(['status', '--home', home]);
      assert.deepEqual(status.ui, { url: `${panelUrl()}/`, running: true });
      const printed = await cli('ui');
      assert.equal(printed.code, 0);
      assert.equal(printed.stdout.trim(), up.ui);
      const forPeople = await cli('status');
      assert.match(forPeople.stdout, new RegExp(`panel ${panelUrl()}/ \\(devnet ui prints its link\\)`));
      assert.doesNotMatch(forPeople.stdout, /secret=/);
    });

    test('the page shows every node with heights that advance, and takes the secret out of the address bar', async () => {
      await page.goto(up.ui!);
      await page.locator('#connection.live').waitFor({ timeout: 20_000 });
      assert.equal(new URL(page.url()).hash, '', 'the secret is no longer in the address bar');
      for (const n of up.nodes) await row(n.name).waitFor({ timeout: 20_000 });
      assert.equal(await page.locator('#nodes-body tr').count(), 4);
      const first = new Map<string, number>();
      await waitFor('every node with a height on the page', bound(4), async () => {
        for (const n of up.nodes) first.set(n.name, await heightOn(n.name));
        return [...first.values()].every((h) => h >= 1);
      });
      for (const n of up.nodes)
        await waitFor(`${n.name}'s height on the page to pass ${first.get(n.name)}`, bound(4), async () => {
          return (await heightOn(n.name)) >= first.get(n.name)! + 2;
        });
      for (const n of up.nodes) assert.equal(await stateOf(n.name), 'running', n.name);
      assert.ok((await page.locator('#blocks-list li').count()) > 0, 'the block stream shows blocks');
      assert.ok(
        (await page.locator('#validators-body tr').count()) === 4,
        'the validators table lists the four',
      );
      await waitFor(
        'a line of validator-0 in the log',
        bound(2),
        async () => (await page.locator('#log-lines .line').count()) > 0,
      );
    });

    test(`the charts draw every node's height, CPU and memory, transactions per second and block interval, from ${charts}`, async () => {
      const source = (await page.locator('#charts-source').textContent()) ?? '';
      if (o.monitoring) assert.match(source, /^from Prometheus \(http:\/\/127\.0\.0\.1:\d+\)$/);
      else assert.equal(source, "from the nodes' /metrics");
      assert.equal((await page.locator('#charts-grid canvas').count()) >= 6, true, 'six charts drawn');
      // Each chart says its latest values in its label (what a screen reader reads): one per node.
      const latest = (title: string) => page.locator(`[aria-label^="${title}: "]`).getAttribute('aria-label');
      await waitFor(
        'every node in the height, CPU and memory charts; a block interval',
        bound(20),
        async () => {
          for (const title of ['Height per node', 'CPU per node', 'Memory per node']) {
            const label = (await latest(title)) ?? '';
            if (!up.nodes.every((n) => new RegExp(`${n.name} \\d+`).test(label))) return false;
          }
          // None sent yet: 0 per second, a value all the same.
          const tps = /: tx\/s \d+\.\d\d\/s$/.test((await latest('Transactions per second')) ?? '');
          return tps && /: interval \d+\.\d\ds$/.test((await latest('Block interval')) ?? '');
        },
      );
    });

    test('validator-2 killed from the page shows as stopped while the others go on; its missed slots are marked', async () => {
      await press('kill', 'validator-2', 'stopped');
      assert.equal(await row('validator-2').locator('td[data-label="height"]').textContent(), '–');
      const others = ['validator-0', 'validator-1', 'validator-3'];
      const from = new Map(await Promise.all(others.map(async (n) => [n, await heightOn(n)] as const)));
      for (const n of others)
        await waitFor(
          `${n} to go on without validator-2`,
          bound(6),
          async () => (await heightOn(n)) >= from.get(n)! + 4,
        );
      // Its turns as proposer go by: blocks decided in round 1 after its missed slot.
      await page
        .locator('#blocks-list li.late', { hasText: 'missed: validator-2' })
        .first()
        .waitFor({ timeout: bound(8) });
      assert.match((await page.locator('#blocks-list li.late').first().textContent()) ?? '', /round \d+/);
      assert.equal(
        (await rpc('validator-2')
          .status()
          .catch(() => null)) === null,
        true,
        'really down',
      );
      await page
        .locator('#activity-list li.done', { hasText: 'kill validator-2' })
        .waitFor({ timeout: 10_000 });
    });

    test('started again from the page, validator-2 catches up with the others', async () => {
      await press('start', 'validator-2', 'running', 4);
      await caughtUp('validator-2');
      assert.ok((await rpc('validator-2').status()).height >= (await heightOn('validator-0')) - 2);
    });

    test('a transfer sent from the page is confirmed', async () => {
      const to = up.accounts[1]!;
      const before = BigInt((await rpc('validator-0').balance(to.address)).balance);
      await page.selectOption('#transfer-from', 'account-0');
      await page.fill('#transfer-to', 'account-1');
      await page.fill('#transfer-amount', '2.5coin');
      await page.getByRole('button', { name: 'Send' }).click();
      const outcome = page.locator('#transfer-outcome.ok');
      await outcome.waitFor({ timeout: bound(10) });
      const text = (await outcome.textContent()) ?? '';
      const m = /^confirmed at height (\d+) · ([0-9a-f]{64})$/.exec(text);
      assert.ok(m, text);
      // Checked outside the page: the node's receipt and the balance.
      const receipt = await rpc('validator-1').waitForReceipt(m[2]!, bound(4));
      assert.equal(receipt.status, 'confirmed');
      assert.equal(receipt.block_height, Number(m[1]));
      await waitFor('the balance to show the transfer', bound(4), async () => {
        const now = BigInt((await rpc('validator-0').balance(to.address)).balance);
        return now - before === 2_500_000_000_000_000_000n;
      });
      await page
        .locator('#blocks-list li', { hasText: /[1-9]\d* txs?/ })
        .first()
        .waitFor({ timeout: bound(4) });
    });

    test('network conditions set, shown and cleared from the page; a one-way cut and its heal', async () => {
      const netCell = () => row('validator-3').locator('td[data-label="network"]');
      await page.selectOption('#net-node', 'validator-3');
      await page.fill('#net-latency', '40ms');
      await page.fill('#net-loss', '1%');
      await page.selectOption('#net-direction', 'out');
      await page.getByRole('button', { name: 'Set', exact: true }).click();
      await page.locator('#net-outcome.ok').waitFor({ timeout: bound(4) });
      await waitFor("the table to show validator-3's conditions", bound(4), async () =>
        /out→\*: 40ms, loss 1%/.test((await netCell().textContent()) ?? ''),
      );
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await waitFor(
        'validator-3 cleared on the page',
        bound(4),
        async () => (await netCell().textContent()) === '–',
      );
      await page.selectOption('#partition-from', 'validator-1');
      await page.selectOption('#partition-to', 'validator-3');
      await page.getByRole('button', { name: 'Cut one way' }).click();
      await waitFor('validator-3 deaf to validator-1 on the page', bound(4), async () =>
        /deaf to validator-1/.test((await netCell().textContent()) ?? ''),
      );
      await page.getByRole('button', { name: 'Heal' }).click();
      await page.locator('#partition-outcome.ok', { hasText: 'healed' }).waitFor({ timeout: bound(4) });
      await waitFor(
        'validator-3 hears everyone again',
        bound(4),
        async () => (await netCell().textContent()) === '–',
      );
      await caughtUp('validator-3');
    });

    test('a disk filled, shown and cleared from the page: the node says its writes fail, then catches up', async () => {
      const diskCell = () => row('validator-3').locator('td[data-label="disk"]');
      await page.selectOption('#disk-node', 'validator-3');
      await page.getByRole('button', { name: 'Fill', exact: true }).click();
      await page
        .locator('#disk-outcome.ok', { hasText: "validator-3's disk: full" })
        .waitFor({ timeout: bound(4) });
      await waitFor("the table to show validator-3's full disk failing its writes", bound(10), async () =>
        /full \((layer|tmpfs)\).*writes failing/.test((await diskCell().textContent()) ?? ''),
      );
      await page.getByRole('button', { name: 'Clear disk', exact: true }).click();
      await waitFor(
        'validator-3 cleared on the page',
        bound(10),
        async () => (await diskCell().textContent()) === '–',
      );
      await caughtUp('validator-3');
    });

    test("the chain held, mined and resumed from the page; a node's clock skewed and back: the header says so", async () => {
      const header = () => page.locator('#chain-time').textContent();
      const heights = async () => Promise.all(up.nodes.map(async (n) => (await rpc(n.name).status()).height));
      await page.getByRole('button', { name: 'Hold chain', exact: true }).click();
      const held = await page.locator('#time-outcome.ok', { hasText: /^chain held at height \d+$/ });
      await held.waitFor({ timeout: bound(10) });
      const at = Number(/height (\d+)/.exec((await held.textContent()) ?? '')![1]);
      await waitFor('the header to say the chain is held', bound(4), async () =>
        /^chain held/.test((await header()) ?? ''),
      );
      assert.ok(Math.max(...(await heights())) <= at, `held at ${at}: ${await heights()}`);
      await page.fill('#time-mine', '3');
      await page.getByRole('button', { name: 'Mine', exact: true }).click();
      await page
        .locator('#time-outcome.ok', { hasText: `chain held (height ${at + 3})` })
        .waitFor({ timeout: bound(20) });
      assert.deepEqual(
        await heights(),
        up.nodes.map(() => at + 3),
        'every node at the mined height, held again',
      );
      await page.getByRole('button', { name: 'Resume chain', exact: true }).click();
      await page.locator('#time-outcome.ok', { hasText: /^chain running/ }).waitFor({ timeout: bound(10) });
      await waitFor('the chain to go on past the mined height', bound(6), async () =>
        (await heights()).every((h) => h > at + 3),
      );
      await page.selectOption('#clock-node', 'validator-1');
      await page.fill('#clock-skew', '+2s');
      await page.getByRole('button', { name: 'Set clock', exact: true }).click();
      await page
        .locator('#clock-outcome.ok', { hasText: "validator-1's clock: +2s" })
        .waitFor({ timeout: bound(10) });
      await waitFor("the header to show validator-1's clock", bound(4), async () =>
        /clocks validator-1 \+2s/.test((await header()) ?? ''),
      );
      await page.fill('#clock-skew', '');
      await page.getByRole('button', { name: 'Set clock', exact: true }).click();
      await page
        .locator('#clock-outcome.ok', { hasText: "validator-1's clock: the machine's" })
        .waitFor({ timeout: bound(10) });
      await waitFor(
        'the header to show no skewed clock',
        bound(4),
        async () => (await header()) === 'chain running',
      );
    });

    test('a transfer with a bad amount: the page shows the reason the server gave, and nothing is sent', async () => {
      const seen = problems.length;
      await page.fill('#transfer-amount', 'lots');
      await page.getByRole('button', { name: 'Send' }).click();
      const outcome = page.locator('#transfer-outcome.failed');
      await outcome.waitFor({ timeout: 10_000 });
      assert.match((await outcome.textContent()) ?? '', /amount/);
      await page
        .locator('#activity-list li.failed', { hasText: 'transfer lots' })
        .waitFor({ timeout: 10_000 });
      // The browser logs the 400 it was answered; that one is expected, nothing else.
      const logged = problems.splice(seen);
      assert.ok(
        logged.every((p) => /status of 400/.test(p)),
        `unexpected: ${JSON.stringify(logged)}`,
      );
      await page.fill('#transfer-amount', '1coin');
    });

    test('validator-1 disconnected from the page shows as disconnected and falls behind; connected again it catches up', async () => {
      await press('disconnect', 'validator-1', 'disconnected');
      const cut = await heightOn('validator-1');
      await waitFor('the others 4 blocks past validator-1', bound(8), async () => {
        return (await heightOn('validator-0')) >= cut + 4;
      });
      assert.ok((await heightOn('validator-1')) <= cut + 1, 'validator-1 stalled, cut off');
      await press('connect', 'validator-1', 'running');
      await caughtUp('validator-1');
    });

    test('a node added from the page appears in the table and keeps up', async () => {
      await page.fill('#add-name', 'observer-0');
      await page.getByRole('button', { name: 'Add' }).click();
      const outcome = page.locator('#add-outcome.ok');
      await outcome.waitFor({ timeout: bound(30) });
      assert.match(
        (await outcome.textContent()) ?? '',
        /^observer-0 joined at height \d+: http:\/\/127\.0\.0\.1:\d+$/,
      );
      await row('observer-0').waitFor({ timeout: bound(4) });
      await shows('observer-0', 'running', 4);
      await caughtUp('observer-0');
      assert.equal(await row('observer-0').locator('td[data-label="validator"]').textContent(), '–');
      // The version the devnet runs it on (devnet status's VERSION), and what the node reports.
      assert.match(
        (await row('observer-0').locator('td[data-label="version"]').textContent()) ?? '',
        /^checkout \(.+\)$/,
      );
    });

    test('the keyboard alone pauses and resumes a node: Tab reaches the buttons, Enter presses them, focus shows', async () => {
      const tabTo = async (label: string) => {
        await page.locator('body').focus();
        for (let i = 0; i < 120; i++) {
          await page.keyboard.press('Tab');
          const focused = await inPage<string | null>(
            page,
            `() => document.activeElement?.getAttribute('aria-label') ?? null`,
          );
          if (focused === label) return;
        }
        assert.fail(`Tab never reached the button "${label}"`);
      };
      await tabTo('pause validator-3');
      const outline = await inPage<string>(
        page,
        `() => getComputedStyle(document.activeElement).outlineStyle`,
      );
      assert.notEqual(outline, 'none', 'the focused button shows it');
      await page.keyboard.press('Enter');
      await shows('validator-3', 'paused');
      await tabTo('resume validator-3');
      await page.keyboard.press('Enter');
      await shows('validator-3', 'running');
    });

    test('no request without the secret, from another Origin or under another Host is obeyed; no other page can drive it', async () => {
      const kill = `${panelUrl()}/api/nodes/validator-1/kill`;
      const plain = await fetch(kill, { method: 'POST' });
      assert.equal(plain.status, 403);
      assert.match(((await plain.json()) as { detail: string }).detail, /needs the panel's secret/);
      const foreign = await fetch(kill, {
        method: 'POST',
        headers: { origin: 'http://evil.example', 'x-devnet-panel-secret': secret() },
      });
      assert.equal(foreign.status, 403);
      const rebound = await exactRequest(kill, {
        method: 'POST',
        headers: { host: `evil.example:${new URL(kill).port}`, 'x-devnet-panel-secret': secret() },
      });
      assert.equal(rebound.status, 403);
      // A page of another origin in the same browser, which even knows the secret: its request
      // needs a CORS preflight, which the panel never grants; a form-like request has no secret.
      const other = await otherOrigin();
      try {
        const evil = await browser.newPage();
        await evil.goto(other.url);
        const outcomes = await inPage<string[]>(
          evil,
          `async ({ kill, secret }) => Promise.all([
            fetch(kill, { method: 'POST', headers: { 'x-devnet-panel-secret': secret } }).then((r) => 'answered ' + r.status, () => 'blocked'),
            fetch(kill, { method: 'POST', mode: 'no-cors' }).then((r) => r.type, () => 'blocked'),
            fetch(kill.replace('/nodes/validator-1/kill', '/events'), { headers: { 'x-devnet-panel-secret': secret } }).then(() => 'read', () => 'blocked'),
          ])`,
          { kill, secret: secret() },
        );
        // The second is sent (a simple request needs no preflight) but carries no secret: refused,
        // and its answer unreadable (opaque, or blocked outright by Cross-Origin-Resource-Policy).
        assert.equal(outcomes[0], 'blocked');
        assert.ok(['opaque', 'blocked'].includes(outcomes[1]!), outcomes[1]);
        assert.equal(outcomes[2], 'blocked');
        await evil.close();
      } finally {
        other.server.close();
      }
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(await stateOf('validator-1'), 'running', 'validator-1 was never killed');
      assert.ok((await rpc('validator-1').status()).height > 0);
    });

    test('no private key reaches the page or its stream', async () => {
      const keys = up.accounts.flatMap((a) => a.private_key ?? []);
      for (const n of up.nodes) {
        const file = JSON.parse(
          await readFile(join(home, 'nodes', n.name, 'validator_key.json'), 'utf8'),
        ) as Record<string, string>;
        keys.push(...Object.values(file).filter((v) => /^[0-9a-f]{64}$/.test(v)));
      }
      assert.ok(keys.length >= 7);
      const stream = await readStream(`${panelUrl()}/api/events`, secret(), 2_000);
      assert.match(stream, /^event: snapshot$/m);
      const content = await page.content();
      for (const k of keys) {
        assert.ok(!content.includes(k), 'a private key is on the page');
        assert.ok(!stream.includes(k), 'a private key is in the stream');
      }
    });

    test('fits 1280×800 and a 420 px window with no sideways scroll, readable contrast; a screenshot kept, not blank', async () => {
      const fits = () =>
        inPage<{ scroll: number; width: number }>(
          page,
          `() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth })`,
        );
      let f = await fits();
      assert.ok(f.scroll <= f.width, `1280: the page is ${f.scroll} px wide`);
      assert.deepEqual(await lowContrastTexts(page), []);
      const dirOut = await artifactsDir();
      const shot = join(dirOut, `panel-${o.runtime}-1280x800.png`);
      const png = await page.screenshot({ path: shot });
      console.log(`# panel screenshot: ${shot}`);
      const variety = await imageVariety(browser, png);
      console.log(`# its luminance stddev ${variety.stddev.toFixed(1)}, ${variety.colors} colors`);
      assert.ok(
        variety.stddev > 10 && variety.colors > 100,
        `a blank screenshot? ${JSON.stringify(variety)}`,
      );
      await page.setViewportSize({ width: 420, height: 800 });
      await page.waitForTimeout(300);
      f = await fits();
      assert.ok(f.scroll <= f.width, `420: the page is ${f.scroll} px wide`);
      const kill = await page.getByRole('button', { name: 'kill validator-0' }).boundingBox();
      assert.ok(
        kill !== null && kill.x >= 0 && kill.x + kill.width <= 420,
        'the node buttons are within the window',
      );
      await page.screenshot({ path: join(dirOut, `panel-${o.runtime}-420.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    test('no console error, page error or failed request in the whole session', () => {
      assert.deepEqual(problems, []);
    });

    test('devnet down removes the panel with the rest', async () => {
      const port = Number(new URL(panelUrl()).port);
      const r = await cli('down');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /removed process panel \(pid \d+\)/);
      assert.ok(await portFree(port), 'the panel port is free again');
      assert.deepEqual(await processesMentioning(home), []);
      await assert.rejects(readdir(home));
    });
  });
}

/** A page of another origin on this host (127.0.0.1, another port). */
async function otherOrigin(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>another site</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** What the event stream sends in its first `ms`. */
async function readStream(url: string, secret: string, ms: number): Promise<string> {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { 'x-devnet-panel-secret': secret }, signal: ac.signal });
  let text = '';
  const timer = setTimeout(() => ac.abort(), ms);
  try {
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      text += decoder.decode(chunk, { stream: true });
  } catch {
    // aborted: the time is up
  } finally {
    clearTimeout(timer);
  }
  return text;
}

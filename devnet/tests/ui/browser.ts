/**
 * The browser the panel's tests drive: Debian's Chromium (/usr/bin/chromium) through
 * playwright-core, never a downloaded one. PANEL_CHROMIUM names another Chromium-based browser
 * where there is no Debian package (GitHub's Ubuntu runners have Chrome, and a snap-only
 * chromium). In CI (CI=true) a missing browser fails the tests with the package to install;
 * elsewhere they are skipped with a line that says so.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot } from '../../src/base/repo.js';

export const CHROMIUM = process.env.PANEL_CHROMIUM || '/usr/bin/chromium';

/** The flags that run Chromium here (docs: /work/shared/ENVIRONMENT.md, "Browser"). */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests cannot run here, or false; throws in CI, where they must. */
export function browserMissing(): string | false {
  if (existsSync(CHROMIUM)) return false;
  const why = `${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium; .ci/run does)`;
  if (process.env.CI === 'true') throw new Error(`CI=true but ${why}`);
  console.log(`# panel browser tests skipped: ${why}`);
  return why;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000 });
}

/** Where screenshots go: a folder CI keeps as an artifact (PANEL_ARTIFACTS_DIR, else <repo>/artifacts/panel). */
export async function artifactsDir(): Promise<string> {
  const dir = process.env.PANEL_ARTIFACTS_DIR ?? join(repoRoot(), 'artifacts', 'panel');
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * Runs `source`, a function written as text for the page (this project's TypeScript has no DOM
 * types, on purpose), with a JSON argument; its value comes back.
 */
export function inPage<T>(page: Page, source: string, arg: unknown = null): Promise<T> {
  return page.evaluate(`(${source})(${JSON.stringify(arg)})`) as Promise<T>;
}

/**
 * How much a PNG varies, decoded by the browser itself: the standard deviation of its pixels'
 * luminance (0 for a blank image) and the number of distinct colors.
 */
export async function imageVariety(
  browser: Browser,
  png: Buffer,
): Promise<{ stddev: number; colors: number }> {
  const page = await browser.newPage();
  try {
    return await inPage(
      page,
      `async (b64) => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const { data } = ctx.getImageData(0, 0, img.width, img.height);
        let sum = 0, sq = 0;
        const colors = new Set();
        for (let i = 0; i < data.length; i += 4) {
          const y = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
          sum += y;
          sq += y * y;
          colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        }
        const n = data.length / 4;
        // max: rounding can make a blank image's variance a hair below 0 (its root NaN).
        return { stddev: Math.sqrt(Math.max(0, sq / n - (sum / n) ** 2)), colors: colors.size };
      }`,
      png.toString('base64'),
    );
  } finally {
    await page.close();
  }
}

const LOW_CONTRAST = `() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] === 1) return c;
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own || el.closest('[hidden], dialog:not([open]), .visually-hidden') || el.matches(':disabled')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const a = lum(rgb(getComputedStyle(el).color));
    const b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push(el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2));
  }
  return low;
}`;

/** Every text on the page whose contrast with what is behind it is under 4.5:1 (WCAG AA). */
export function lowContrastTexts(page: Page): Promise<string[]> {
  return inPage<string[]>(page, LOW_CONTRAST);
}

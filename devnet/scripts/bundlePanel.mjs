/**
 * Builds the panel's page (devnet/src/ui/page, compiled by tsc into devnet/dist/src/ui/page) into
 * devnet/dist/bundle/panel/: panel.js (the page's code with uPlot, one ES module), panel.css
 * (with uPlot's stylesheet) and index.html. The panel serves these three files and nothing else;
 * the page loads nothing from anywhere else.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const devnet = fileURLToPath(new URL('../', import.meta.url));
const out = `${devnet}dist/bundle/panel`;
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [`${devnet}dist/src/ui/page/main.js`],
  outfile: `${out}/panel.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  legalComments: 'eof',
  logLevel: 'warning',
});
await build({
  entryPoints: [`${devnet}src/ui/page/panel.css`],
  outfile: `${out}/panel.css`,
  bundle: true,
  minify: true,
  logLevel: 'warning',
});
copyFileSync(`${devnet}src/ui/page/index.html`, `${out}/index.html`);

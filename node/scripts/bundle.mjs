/**
 * Bundles the node (node/dist/src/bin/chain-node.js), the task market
 * (node/dist/src/bin/chain-market.js) and the devnet command (devnet/dist/src/cli/main.js) into
 * one file each, node/dist/bundle/chain-node.cjs, chain-market.cjs and devnet/dist/bundle/devnet.cjs
 * (each in its own package), each started by a launcher beside it (chain-node.mjs,
 * chain-market.mjs, devnet.mjs: copies of node/scripts/launcher.mjs) from V8's code cache, which
 * this script makes (codeCache.mjs). A process then loads one file instead of some thousand
 * modules, and does not compile it: loading and compiling were most of a node's start, and a
 * devnet starts all its nodes at once (docs/BENCHMARKS.md, "devnet up"). The devnet's runtimes run
 * the node's bundle; the unbundled output stays for the tests and `chain-node`. Native addons stay
 * outside (classic-level, found next to its package; dockerode, whose ssh2 has optional ones), so
 * the bundles need those packages and their dependencies beside them.
 */
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeCodeCache } from './codeCache.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const programs = [
  { name: 'chain-node', entry: 'node/dist/src/bin/chain-node.js', dir: 'node/dist/bundle' },
  { name: 'chain-market', entry: 'node/dist/src/bin/chain-market.js', dir: 'node/dist/bundle' },
  { name: 'devnet', entry: 'devnet/dist/src/cli/main.js', dir: 'devnet/dist/bundle' },
].map((p) => ({ ...p, entry: `${repo}${p.entry}`, dir: `${repo}${p.dir}` }));

for (const { name, entry, dir } of programs) {
  mkdirSync(dir, { recursive: true });
  // Caches of earlier bundles.
  for (const f of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()))
    if (f.name.startsWith(`${name}.`) && f.name.endsWith('.v8cache')) rmSync(`${dir}/${f.name}`);
  await build({
    entryPoints: [entry],
    outfile: `${dir}/${name}.cjs`,
    bundle: true,
    platform: 'node',
    // CommonJS, because vm.Script (which takes a code cache on Node 20) compiles scripts only.
    format: 'cjs',
    target: 'node20',
    external: ['classic-level', 'dockerode'],
    // A CommonJS script has no import.meta: the file's own URL, from the __filename the launcher
    // passes (the devnet finds the repository from it).
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    // Whitespace and comments out: V8 keeps a script's whole source in every process's heap for
    // as long as it runs (lazy compilation, Function#toString), and the comments' few non-ASCII
    // characters made the whole 3.9 MB a two-byte string, 7.9 MB; without them, ASCII, about
    // 2.6 MB, and the table of line ends that a stack trace builds is a few entries instead of
    // 170,000 (1.4 MB). The source map still maps every position (docs/BENCHMARKS.md,
    // "Memory and start-up of an idle node"). Names are kept: no identifier is renamed.
    minifyWhitespace: true,
    legalComments: 'none',
    charset: 'ascii',
    sourcemap: true,
    logLevel: 'warning',
  });
  copyFileSync(`${repo}node/scripts/launcher.mjs`, `${dir}/${name}.mjs`);
  chmodSync(`${dir}/${name}.mjs`, 0o755);
  await writeCodeCache(dir, name);
}

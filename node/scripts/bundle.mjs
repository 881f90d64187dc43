/**
 * Bundles the compiled node (dist/node/src/bin/chain-node.js) into one file,
 * dist/bundle/chain-node.mjs. A node process then loads one file instead of some thousand
 * modules: it starts in about half the time, which is most of the time `devnet up` takes. The
 * devnet's runtimes run the bundle; the unbundled output stays for the tests and `chain-node`.
 * classic-level stays outside (a native addon found next to its package), so the bundle needs
 * only that package and its dependencies beside it.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/node/src/bin/chain-node.js'],
  outfile: 'dist/bundle/chain-node.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['classic-level'],
  sourcemap: true,
  logLevel: 'warning',
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});

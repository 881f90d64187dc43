#!/usr/bin/env node
/**
 * The entry of each bundled program (node/scripts/bundle.mjs copies it to dist/bundle/NAME.mjs
 * for chain-node and devnet): it runs NAME.cjs beside it, the program in one file, from V8's
 * code cache when one was made for exactly that file.
 *
 * Why: compiling the 3.8 MB node bundle took about 0.2 s of a core in every node process, a third
 * of its start (a devnet starts its nodes together, on a machine of a few cores), and the devnet
 * command spent about as long loading its modules before it started anything. Node 20 has no
 * compile cache of its own (module.enableCompileCache came in Node 22), so the bundle is a
 * CommonJS script compiled through vm.Script, which accepts and produces V8's cached data.
 *
 * `NAME.mjs --write-code-cache ARGS…` runs the program with ARGS (default --help) and writes the
 * cache when it exits, with every function compiled by then: the build makes the node's from a
 * short two-validator run (node/scripts/codeCache.mjs), so that what a node runs at start is in
 * it, not only what its modules run when loaded. `NAME.mjs --ensure-code-cache` keeps a cache
 * that this Node accepts and otherwise writes one from --help (the node image runs it: its Node
 * may not be the host's). The cache is named after the bundle's SHA-256: V8 checks only a
 * source's length before using a cache, and a cache of other code of the same length would run
 * that other code. A missing or refused cache only costs the compile.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const launcher = fileURLToPath(import.meta.url);
const here = dirname(launcher);
const name = basename(launcher, '.mjs');
const bundle = join(here, `${name}.cjs`);
let source = readFileSync(bundle, 'utf8');
const cacheFile = join(
  here,
  `${name}.${createHash('sha256').update(source).digest('hex').slice(0, 16)}.v8cache`,
);

const mode = process.argv[2];
const writeCache = mode === '--write-code-cache' || mode === '--ensure-code-cache';
if (writeCache) process.argv.splice(2, 1);
// Making a cache from --help evaluates the whole bundle and starts nothing.
if (writeCache && process.argv.length === 2) process.argv.push('--help');

let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // No cache for this bundle: compile it.
}

// The shebang line is emptied, not removed, so that line numbers stay those of the file.
const script = new Script(Module.wrap(source.replace(/^#!.*/, '')), {
  filename: bundle,
  cachedData: mode === '--write-code-cache' ? undefined : cachedData,
});
if (mode === '--ensure-code-cache' && cachedData !== undefined && !script.cachedDataRejected) process.exit(0);
// Held for the life of the process otherwise (this module's scope never ends): the cache's bytes
// (3.4 MB outside V8's heap) are in the compiled code now, and the script keeps its own source.
cachedData = undefined;
source = undefined;

if (writeCache) {
  // At exit, so that the functions compiled while the program ran are included.
  process.once('exit', () => {
    const partial = `${cacheFile}.${process.pid}`;
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile);
  });
}

const module = { exports: {}, id: bundle, filename: bundle, loaded: false };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, here);

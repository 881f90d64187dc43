/**
 * Makes the node bundle's code cache from what a node runs at start (node/scripts/launcher.mjs):
 * a two-validator network on 127.0.0.1 in a temporary folder, validator-0 started with
 * --write-code-cache, until it has committed block 3 (300 ms blocks) and answered a few RPC requests; then both
 * stop and validator-0 writes its cache. A cache made from --help alone held only what the
 * modules run when loaded, and a starting node still compiled about as much again (its RPC
 * server, libp2p's dials and handshakes, consensus).
 *
 * If that run fails (no free ports, no block in time), the cache is made from --help, and the
 * build says so: a node then compiles more at start, and nothing else changes.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Compiled before the bundles are made (npm run build: tsc -b, then this).
import { freeBasePort } from '@chain-devnet/kit/ports';
import { runProgram, startProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { NODE_V8_FLAGS } from '../dist/src/builds/index.js';
import { networkPorts } from '../dist/src/testnet/index.js';

const RUN_TIMEOUT_MS = 30_000;

async function get(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return res.headers.get('content-type')?.includes('json') ? res.json() : res.text();
}

/** Runs a launcher to its end; fails with what it said when it fails. */
async function run(args) {
  const r = await runProgram({ args });
  if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
}

async function twoValidatorRun(launcher) {
  const home = mkdtempSync(join(tmpdir(), 'chain-node-code-cache-'));
  const nodes = [];
  try {
    const base = await freeBasePort((b) => networkPorts(b, 2));
    await run([
      launcher,
      'testnet',
      '--validators',
      '2',
      '--output',
      home,
      '--base-port',
      String(base),
      '--block-time',
      '300ms',
    ]);
    const start = (i, extra) =>
      startProgram({
        args: [...NODE_V8_FLAGS, launcher, ...extra, 'start', '--home', join(home, `validator-${i}`)],
        name: `validator-${i}`,
      });
    nodes.push(start(0, ['--write-code-cache']), start(1, []));
    const rpc = `http://127.0.0.1:${base}`;
    const outcome = await waitFor(`block 3 at ${rpc}`, RUN_TIMEOUT_MS, async () => {
      if (nodes.some((n) => !n.running)) return 'a node exited';
      return (await get(`${rpc}/status`)).height >= 3 ? 'ok' : null;
    });
    if (outcome !== 'ok') throw new Error(outcome);
    for (const path of ['/block/1', '/validators', '/metrics', '/snapshots'])
      await get(`${rpc}${path}`).catch(() => null);
  } finally {
    // SIGTERM: validator-0 writes its cache as it exits.
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The V8 flags a program runs with: V8 refuses a code cache made under other flags (it keeps a
 * hash of them), so each cache is made under its program's. The node and the market run with
 * NODE_V8_FLAGS (the devnet starts them so, and the image's ENTRYPOINT); the devnet command runs
 * as people type it, without.
 */
const FLAGS = { 'chain-node': NODE_V8_FLAGS, 'chain-market': NODE_V8_FLAGS, devnet: [] };

/** Writes the code cache of dist/bundle/NAME.cjs; for the node, from a short run of two validators. */
export async function writeCodeCache(dir, name) {
  const launcher = `${dir}/${name}.mjs`;
  if (name === 'chain-node') {
    try {
      await twoValidatorRun(launcher);
      if (readdirSync(dir).some((f) => f.startsWith(`${name}.`) && f.endsWith('.v8cache'))) return;
      throw new Error('validator-0 wrote no cache');
    } catch (e) {
      console.warn(`code cache: the two-validator run failed (${e.message}); making it from --help`);
    }
  }
  await run([...FLAGS[name], launcher, '--write-code-cache']);
}

/**
 * What the process runtime runs: the built node and market (their bundles when built, started
 * from V8's code cache: one file to load, little to compile), and the monitors' binaries when
 * this machine has them on PATH.
 */
import { existsSync } from 'node:fs';
import { findOnPath } from '@chain-devnet/kit/process';
import { chainNodeProgram, NODE_V8_FLAGS } from '@chain-devnet/node/builds';
import { DevnetError } from '../../base/errors.js';
import { nodePackagePath } from '../../base/repo.js';
import type { NodeBuild, ServiceProgram } from '../runtime.js';

/** The compiled node (the tests run it; npm run build makes it). */
export const CHAIN_NODE_JS = nodePackagePath('dist', 'src', 'bin', 'chain-node.js');
const CHAIN_NODE_BUNDLE = nodePackagePath('dist', 'bundle', 'chain-node.mjs');
export const NODE_PROGRAM = existsSync(CHAIN_NODE_BUNDLE) ? CHAIN_NODE_BUNDLE : CHAIN_NODE_JS;
const CHAIN_MARKET_BUNDLE = nodePackagePath('dist', 'bundle', 'chain-market.mjs');
const MARKET_PROGRAM = existsSync(CHAIN_MARKET_BUNDLE)
  ? CHAIN_MARKET_BUNDLE
  : nodePackagePath('dist', 'src', 'bin', 'chain-market.js');

/** The chain-node program a node of this build runs. */
export function nodeProgramOf(build: NodeBuild): string {
  if (build.kind === 'checkout') return NODE_PROGRAM;
  if (build.kind === 'image')
    throw new DevnetError(
      'BAD_VERSION',
      `${build.version}: an image runs on the docker and swarm runtimes only; on processes name a build (git:REF or path:DIR)`,
    );
  const program = chainNodeProgram(build.root);
  if (program === null)
    throw new DevnetError('BAD_VERSION', `${build.version}: ${build.root} holds no chain-node build`);
  return program;
}

/** A command line's start: the program and the arguments before the service's own. */
export type Command = { readonly command: string; readonly args: readonly string[] };

/** How to run a service's program here, or why it cannot run (a line for people). */
export function commandOf(program: ServiceProgram): Command | { readonly note: string } {
  if (program === 'chain-market')
    return { command: process.execPath, args: [...NODE_V8_FLAGS, MARKET_PROGRAM] };
  if (program === 'prometheus') {
    const bin = findOnPath('prometheus');
    return bin === null
      ? {
          note: 'Prometheus skipped: no prometheus binary on PATH (Debian/Ubuntu: apt-get install prometheus; or use --runtime docker)',
        }
      : { command: bin, args: [] };
  }
  const bin = findOnPath('grafana', 'grafana-server');
  if (bin === null)
    return {
      note: 'Grafana skipped: no grafana server binary on PATH (see grafana.com/docs; or use --runtime docker)',
    };
  // `grafana server` or the older `grafana-server`; its home path holds its default configuration.
  const homepath = process.env.GRAFANA_HOME ?? '/usr/share/grafana';
  return {
    command: bin,
    args: [...(bin.endsWith('grafana-server') ? [] : ['server']), '--homepath', homepath],
  };
}

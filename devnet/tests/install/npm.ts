/**
 * npm as a person runs it, for the tests that install this repository or its packages somewhere
 * else: the npm on PATH, in a folder of the test's, with none of the npm_* variables an outer
 * `npm test` sets (they would point the inner npm at this checkout's configuration), and the
 * npm cache the outer install filled (installs prefer it to the registry: `--prefer-offline`).
 */
import assert from 'node:assert/strict';
import { type RunResult, runProgram } from '@chain-devnet/kit/process';

/**
 * The environment of a program run in a test's folder: this one, without npm's own variables and
 * without NODE_TEST_CONTEXT (set by the test runner that runs this file: a `node --test` inside
 * would take itself for that runner's child and report to it instead of printing its results).
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_TEST_CONTEXT',
    ),
  );
  return { ...env, ...extra };
}

/** Runs `command args` in `cwd`; it must exit 0 (the message has the end of its output). */
export async function run(command: string, args: readonly string[], cwd: string): Promise<RunResult> {
  const r = await runProgram({ command, args, cwd, env: cleanEnv(), timeoutMs: 300_000 });
  assert.equal(
    r.code,
    0,
    `${command} ${args.join(' ')} (in ${cwd}) exited ${r.code}:\n${r.stdout.slice(-2_000)}\n${r.stderr.slice(-4_000)}`,
  );
  return r;
}

/** `npm install` as the README says, from the npm cache where it has the packages. */
export const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'] as const;

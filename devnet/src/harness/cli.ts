/**
 * The devnet command run as a user runs it: the bundled CLI (npm's `devnet` bin,
 * devnet/dist/bundle/devnet.mjs, made by npm run build) in its own process, through the node
 * package's spawner; its output for people, or parsed from --json (the shapes of jsonShapes.ts).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunResult, runProgram, runProgramSync } from '@chain-devnet/kit/process';

/** The bundled CLI: from this module's compiled file, devnet/dist/src/harness/cli.js. */
export const DEVNET_BIN = fileURLToPath(new URL('../../bundle/devnet.mjs', import.meta.url));

export interface CliOptions {
  /** Default 180 s: `up` of a large devnet takes longer; pass more. */
  readonly timeoutMs?: number;
  /** Added to this process's environment. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Another checkout's root (built): its own bundled CLI runs, which starts its own nodes (the
   * benchmarks' `--builds`, main beside a branch in one run).
   */
  readonly build?: string;
}

/** The bundled CLI of a checkout's root, or this one's. */
function binOf(build: string | undefined): string {
  return build === undefined ? DEVNET_BIN : join(build, 'devnet', 'dist', 'bundle', 'devnet.mjs');
}

/** `devnet ARGS…`: its exit code, stdout and stderr. */
export function devnetCli(args: readonly string[], o: CliOptions = {}): Promise<RunResult> {
  return runProgram({
    args: [binOf(o.build), ...args],
    name: `devnet ${args[0] ?? ''}`.trim(),
    timeoutMs: o.timeoutMs ?? 180_000,
    ...(o.env === undefined ? {} : { env: { ...process.env, ...o.env } }),
  });
}

/**
 * `devnet ARGS… --json`, parsed as T (one of the shapes of jsonShapes.ts); fails with what the
 * command said when it exits with an error or prints no JSON.
 */
export async function devnetJson<T>(args: readonly string[], o: CliOptions = {}): Promise<T> {
  const r = await devnetCli([...args, '--json'], o);
  if (r.code !== 0)
    throw new Error(`devnet ${args.join(' ')} exited ${r.code}: ${r.stdout.trim()} ${r.stderr.trim()}`);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`devnet ${args.join(' ')} printed no JSON: ${r.stdout.slice(0, 500)}`);
  }
}

/**
 * `devnet ARGS…` run to its end synchronously, for a process about to exit (a signal handler
 * taking its devnet down); its output is dropped. The exit code.
 */
export function devnetCliSync(args: readonly string[], timeoutMs = 120_000): number {
  return runProgramSync({ args: [DEVNET_BIN, ...args], timeoutMs });
}

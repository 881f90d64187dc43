/**
 * The end of a program's process: its command line run, then exit with its code; a usage error
 * printed with the help that lists the options (exit 2), any other error as one line (exit 1, or
 * the error's own numeric `exitCode` when it has one, e.g. chain-node's version refusal).
 * Exiting at once: servers and sockets still open are the command's to have closed.
 */
import { type Program, runCommandLine } from './program.js';
import { describeUsageError, UsageError } from './usageError.js';

export function runMain(p: Program, args: readonly string[] = process.argv.slice(2)): void {
  runCommandLine(p, args, (text) => process.stdout.write(text)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      if (e instanceof UsageError) {
        const { line, hint } = describeUsageError(e, p.name);
        process.stderr.write(hint === null ? `${line}\n` : `${line}\n${hint}\n`);
        process.exit(2);
      }
      process.stderr.write(`${p.name}: ${e instanceof Error ? e.message : String(e)}\n`);
      const code = (e as { exitCode?: unknown } | null)?.exitCode;
      process.exit(typeof code === 'number' && Number.isInteger(code) && code > 0 ? code : 1);
    },
  );
}

/**
 * What the committed bins (chain-node, chain-market, devnet) share: run a program the build makes.
 * The bins are committed files, not the build's output, because npm links a workspace's bins
 * during `npm install` before the root's `prepare` has built anything, and skips a bin whose file
 * does not exist yet: `npx devnet` would then ask the public registry. When the build has not
 * run (or failed), the bin says how to get it instead of a stack trace.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The exit code of a bin whose program is not built (EX_UNAVAILABLE of sysexits.h). */
export const NOT_BUILT = 69;

/** Runs the built program at `program` (a file: URL), or explains that it is missing and exits. */
export async function launch(name, program) {
  const path = fileURLToPath(program);
  if (!existsSync(path)) {
    process.stderr.write(
      `${name}: not built (${path} is missing). Run \`npm run build\` at the root of the repository ` +
        '(`npm install` runs it too; its output says why it failed).\n',
    );
    process.exit(NOT_BUILT);
  }
  await import(program.href);
}

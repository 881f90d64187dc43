/**
 * The benchmark scripts' command line: node:util's parseArgs, strict, with a bad option said in
 * one line (the script, the error, the options it takes) and exit status 2, not a stack trace.
 */
import { basename } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

export function parseBenchArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const takes = Object.keys(config.options ?? {})
      .map((o) => `--${o}`)
      .join(', ');
    process.stderr.write(
      `${basename(process.argv[1] ?? 'bench')}: ${(e as Error).message} (it takes ${takes})\n`,
    );
    process.exit(2);
  }
}

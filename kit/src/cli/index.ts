/**
 * Command-line programs declared once (`@chain-devnet/kit/cli`), shared by chain-node,
 * chain-market and devnet: each command's options, positionals, help and handler in one
 * declaration (defineCommand), a program as a table of them (runCommandLine), and help
 * generated from the declarations. Built on node:util parseArgs: no dependency, and exact
 * control of the messages and exit codes.
 */

export { parseBenchArgs } from './benchArgs.js';
export {
  type Command,
  defineCommand,
  type Options,
  type Parsed,
  type Positional,
  type Values,
} from './command.js';
export { undeclaredOptionsIn } from './docs.js';
export { commandHelp, programHelp } from './help.js';
export { runMain } from './main.js';
export {
  choice,
  duration,
  flag,
  integer,
  list,
  type Option,
  signedDuration,
  text,
  valueOption,
} from './options.js';
export { findCommand, type Program, runCommandLine } from './program.js';
export { describeUsageError, UsageError } from './usageError.js';

/**
 * A program as a table of commands: which command a command line names (the longest name that
 * its first words spell, or the default command before an option), its help, and the usage
 * errors of the command line, each naming the command it is about.
 */
import { asksForHelp, type Command, type Program } from './command.js';
import { commandHelp, programHelp } from './help.js';
import { UsageError } from './usageError.js';

export type { Program };

/** The command that `args` names, and the arguments that follow its name. */
export function findCommand(
  p: Program,
  args: readonly string[],
): { command: Command; rest: readonly string[] } {
  let best: Command | null = null;
  for (const c of p.commands) {
    const words = c.name.split(' ');
    if (words.every((w, i) => args[i] === w) && words.length > (best?.name.split(' ').length ?? 0)) best = c;
  }
  if (best !== null) return { command: best, rest: args.slice(best.name.split(' ').length) };
  const first = args[0];
  if (p.defaultCommand !== null && (first === undefined || first.startsWith('-'))) {
    const command = p.commands.find((c) => c.name === p.defaultCommand);
    if (command !== undefined) return { command, rest: args };
  }
  const named = args.filter((a) => !a.startsWith('-')).slice(0, 2);
  throw new UsageError(`unknown command ${named.join(' ')}: ${p.name} help lists the commands`, p.name);
}

/**
 * Runs the command line `args` (process.argv.slice(2)): help (`help [COMMAND]`, `--help`, `-h`,
 * or `COMMAND --help`) is printed through `print`; a usage error is thrown with `where` set to
 * the command it is about. The result is the exit code.
 */
export async function runCommandLine(
  p: Program,
  args: readonly string[],
  print: (text: string) => void,
): Promise<number> {
  const first = args[0];
  if (
    first === 'help' ||
    first === '--help' ||
    first === '-h' ||
    (first === undefined && p.defaultCommand === null)
  ) {
    const named = args[1] === undefined ? null : findCommand(p, args.slice(1)).command;
    print(named === null ? programHelp(p) : commandHelp(p.name, named));
    return 0;
  }
  const { command, rest } = findCommand(p, args);
  const where = `${p.name} ${command.name}`;
  if (asksForHelp(rest)) {
    print(commandHelp(p.name, command));
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError && e.where === null) throw new UsageError(e.message, where);
    throw e;
  }
}

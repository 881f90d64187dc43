/**
 * A command line that is wrong: an unknown command or option, a value that is not what the
 * option takes, a missing argument. Nothing ran; the programs exit 2 on it.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command line it is about (`devnet up`), set by the dispatcher when a handler throws it bare. */
    readonly where: string | null = null,
  ) {
    super(message);
  }
}

/**
 * What a program prints for a usage error: the problem and where, then the command's help that
 * lists its options (for the program itself, its message says where to look already).
 */
export function describeUsageError(e: UsageError, program: string): { line: string; hint: string | null } {
  const where = e.where ?? program;
  return { line: `${where}: ${e.message}`, hint: where === program ? null : `see ${where} --help` };
}

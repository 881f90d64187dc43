/**
 * A failure to start that the operator can fix: the message says how (chain-node prints it, no
 * stack trace) and the process exits with `exitCode` (1 unless a documented code says more, as
 * VERSION_REFUSED_EXIT_CODE does).
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

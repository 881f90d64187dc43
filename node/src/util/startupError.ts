/** A failure to start that the operator can fix: the message says how (chain-node prints it, no stack trace). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

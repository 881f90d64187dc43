/**
 * Errors of the devnet tool, with codes. The CLI translates them once: the message (which says
 * what to do) on stderr and an exit code; with --json, `{ "error": { code, message } }`.
 */
export type DevnetErrorCode =
  | 'BAD_MANIFEST'
  | 'BAD_FLAG'
  | 'BAD_SCENARIO'
  | 'NO_DEVNET'
  | 'ALREADY_UP'
  | 'NO_ENGINE'
  | 'PORT_TAKEN'
  | 'IMAGE_BUILD'
  | 'BAD_VERSION'
  | 'UNKNOWN_NODE'
  | 'NODE_START'
  | 'TIMEOUT'
  | 'TX_FAILED'
  | 'RUNTIME'
  | 'UI'
  | 'BAD_ARCHIVE'
  | 'BAD_FORK'
  /** A node the command needed did not answer (stopped, still starting, or gone). */
  | 'UNREACHABLE'
  /** A node refused what the command asked (its HTTP status and detail are in the message). */
  | 'NODE_REFUSED'
  /** What answered at a node's URL sent more than its endpoint's answer may be (the bound is in the message). */
  | 'BAD_ANSWER';

export class DevnetError extends Error {
  override readonly name = 'DevnetError';
  constructor(
    readonly code: DevnetErrorCode,
    message: string,
  ) {
    super(message);
  }
}

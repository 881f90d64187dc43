/** Storage failures with codes; the node turns them into a clear exit message. */
export type StoreErrorCode =
  | 'STORE_UNAVAILABLE'
  | 'STORE_CORRUPT'
  | 'WRONG_CHAIN'
  | 'GENESIS_MISMATCH'
  /** The disk refused a write (full, or another system error): nothing of it was written. */
  | 'STORE_WRITE_FAILED';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** Whether `e` is the store refusing a write (the disk full, or another system error of a write). */
export const isWriteFailed = (e: unknown): boolean =>
  e instanceof StoreError && e.code === 'STORE_WRITE_FAILED';

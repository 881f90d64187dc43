/** Storage failures with codes; the node turns them into a clear exit message. */
export type StoreErrorCode = 'STORE_UNAVAILABLE' | 'STORE_CORRUPT' | 'WRONG_CHAIN' | 'GENESIS_MISMATCH';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

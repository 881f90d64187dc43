/** A receipt as stored once a transaction's fate is known (in a block, or expired). */
export interface StoredReceipt {
  readonly tx_hash: string;
  readonly status: 'confirmed' | 'failed';
  /** null for a transaction that expired from the mempool without entering a block. */
  readonly block_height: number | null;
  readonly timestamp: number | null;
  readonly error: string | null;
  /** Stable error code beside the message (null when confirmed). */
  readonly error_code: string | null;
}

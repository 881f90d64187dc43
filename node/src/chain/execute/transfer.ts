/** TRANSFER: moves `amount` from the sender to `to_address`. */

import { requirePositiveAmount } from './common.js';
import type { TxRule } from './context.js';

export const transferRule: TxRule = {
  check: (_d, tx) => requirePositiveAmount(tx),
  cost: (_d, tx) => tx.amount,
  apply: (d, tx) => d.credit(tx.to!, tx.amount),
};

/**
 * TRANSFER: moves `amount` from the sender to `to_address`; to one of the reserved addresses
 * (reserved.ts) it is burned (total_burned) or given to the treasury instead of credited.
 */

import { BURN_ADDRESS, TREASURY_ADDRESS } from '../reserved.js';
import { requirePositiveAmount } from './common.js';
import type { TxRule } from './context.js';

export const transferRule: TxRule = {
  check: (_d, tx) => requirePositiveAmount(tx),
  cost: (_d, tx) => tx.amount,
  apply(d, tx) {
    if (tx.to === BURN_ADDRESS) d.burn(tx.amount);
    else if (tx.to === TREASURY_ADDRESS) d.fundTreasury(tx.amount);
    else d.credit(tx.to!, tx.amount);
  },
};

/**
 * The runner of the transaction failure tables (execute/<type>.test.ts, and executeTx.test.ts for
 * the checks every type shares): one row per way a transaction fails, as (before-state,
 * transaction, expected code + message fragment). Each row runs inside a real block and must
 * change nothing: the block's state root equals that of an empty block on the same state (no
 * fee, no nonce, no write), the sender's account is untouched and the outcome carries the
 * failure; the mempool's checkTx says the same.
 *
 * Figures: devnet parameters with the test genesis; the minimum fee is base gas × 1000 wei
 * (TRANSFER 21_000_000, STAKE/UNSTAKE 40_000_000, DELEGATE/UNDELEGATE 35_000_000,
 * UNJAIL 50_000_000, UPDATE_VALIDATOR 30_000_000, SUBMIT_RESULT 80_000_000 wei); min stake 100
 * coins = 100000000000000000000 wei; unjail fee 1000 coins; jailed UNSTAKE penalty amount / 10.
 * `val-0` is the only ACTIVE validator and proposes every block.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type ChainState,
  checkTx,
  coins,
  StateDraft,
  stateRoot,
  type Tx,
  type TxErrorCode,
} from '../../../../src/chain/index.js';
import { expectedSupply, GENESIS_TIME, heldSupply } from '../../../fixtures.js';
import { acct, chainOf, type World } from '../../../world.js';

export const MIN_STAKE = '100000000000000000000';

export interface ErrorCase {
  readonly code: TxErrorCode;
  /** "<before-state> -> <transaction>" */
  readonly name: string;
  readonly before: World;
  /** The sender's label: its account must come out of the block untouched. */
  readonly sender: string;
  readonly tx: (s: ChainState) => Tx;
  /** A fragment of the failure message (exact figures where the message has them). */
  readonly message: string;
}

export const carolInactive: World = {
  accounts: { carol: coins(1000), alice: coins(1000) },
  validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
};
export const carolJailed: World = {
  accounts: { carol: coins(5000), alice: coins(1000) },
  validators: { carol: { stake: coins(1000), status: 'JAILED' } },
};
export const carolEjected: World = {
  accounts: { carol: coins(5000), alice: coins(1000) },
  validators: { carol: { stake: 0n, status: 'EJECTED' } },
};

/** Registers one test per row: the row's failure, and nothing changed. */
export function failureTable(title: string, cases: readonly ErrorCase[]): void {
  describe(title, () => {
    for (const c of cases) {
      it(`${c.code}: ${c.name}`, () => {
        const chain = chainOf(c.before);
        const before = chain.state;
        const t = c.tx(before);
        const r = chain.produce([t]);

        const error = r.outcomes[0]?.error;
        assert.ok(error, 'the outcome carries the failure');
        assert.equal(error.code, c.code);
        assert.ok(
          error.message.includes(c.message),
          `message ${JSON.stringify(error.message)} lacks ${c.message}`,
        );

        // The mempool's check (checkTx, no block) says exactly the same thing.
        const ctx = { height: 1, timestamp: GENESIS_TIME + 1, epoch: 0, txHash: '', computeResults: [] };
        assert.deepEqual(checkTx(new StateDraft(before), t, ctx), error);

        // Nothing changed: no fee collected, the sender's balance and nonce as before, and the whole
        // state exactly as after an empty block.
        assert.equal(r.fees, 0n);
        const empty = chainOf(c.before);
        empty.produce([]);
        const sender = acct(c.sender);
        const was = before.accounts.get(sender);
        const now = chain.state.accounts.get(sender);
        assert.equal(now?.nonce ?? 0, was?.nonce ?? 0, 'same nonce');
        // val-0 is also the proposer: its balance grows by the block reward, as after an empty block.
        const reward = c.sender === 'val-0' ? coins(10) : 0n;
        assert.equal(now?.balance ?? 0n, (was?.balance ?? 0n) + reward, 'same balance');
        assert.deepEqual(now, c.sender === 'val-0' ? empty.state.accounts.get(sender) : was);
        assert.equal(chain.balance('val-0'), coins(10), 'the proposer gets the reward and no fee');
        assert.equal(stateRoot(chain.state), stateRoot(empty.state));
        assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
      });
    }
  });
}

/** The codes of every failure table row, read from the test sources beside this file. */
export function failureRowCodes(): string[] {
  // This runs from node/dist/tests/unit/chain/execute/; the rows are in the .ts sources.
  const dir = fileURLToPath(new URL('../../../../../tests/unit/chain/execute/', import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => readFileSync(`${dir}${f}`, 'utf8'))
    .filter((text) => text.includes('failureTable('))
    .flatMap((text) => [...text.matchAll(/^ {4}code: '([A-Z_]+)',$/gm)].map((m) => m[1]!));
}

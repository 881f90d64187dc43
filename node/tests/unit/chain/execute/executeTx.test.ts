/**
 * What every transaction type shares (execute/executeTx.ts): the minimum fee, the checks in one
 * order (fee, nonce, the type's rule, balance) and a failure that changes nothing; the failure
 * rows of the shared checks, and that every error code has a test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  coins,
  executeTx,
  minFee,
  StateDraft,
  stateRoot,
  TX_ERROR_CODES,
  TX_TYPES,
} from '../../../../src/chain/index.js';
import { GENESIS_TIME, tx } from '../../../fixtures.js';
import { acct, build, chainOf, valAddr } from '../../../world.js';
import { carolJailed, type ErrorCase, failureRowCodes, failureTable } from './failureTable.js';
import { FEE } from './ruleTable.js';

describe('minimum fee', () => {
  it('is base gas × 1000 wei for every type (the FEE figures used below)', () => {
    const params = build({}).params;
    assert.equal(params.minGasPrice, 1000n);
    assert.deepEqual(Object.fromEntries(TX_TYPES.map((t) => [t, minFee(t, params.minGasPrice)])), FEE);
  });
});

const FAILURES: readonly ErrorCase[] = [
  {
    code: 'FEE_TOO_LOW',
    name: 'alice 1000 coins -> TRANSFER with fee 20_999_999 wei, 1 wei under the minimum',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n, fee: 20_999_999n }),
    message: 'fee 20999999 wei is below the minimum 21000000 wei for TRANSFER',
  },
  {
    code: 'FEE_TOO_LOW',
    name: 'carol JAILED -> UNJAIL with fee 0',
    before: carolJailed,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL', { fee: 0n }),
    message: 'fee 0 wei is below the minimum 50000000 wei for UNJAIL',
  },
  {
    code: 'FEE_TOO_LOW',
    name: 'alice nonce 0 -> low fee and wrong nonce: the fee is checked first',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n, fee: 1n, nonce: 9 }),
    message: 'fee 1 wei is below the minimum 21000000 wei',
  },
  {
    code: 'BAD_NONCE',
    name: 'alice nonce 0 -> TRANSFER with nonce 1',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n, nonce: 1 }),
    message: 'bad nonce: expected 0, got 1',
  },
  {
    code: 'BAD_NONCE',
    name: 'alice nonce 3 -> replay of an old nonce 2',
    before: { accounts: { alice: coins(1000) }, nonces: { alice: 3 } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n, nonce: 2 }),
    message: 'bad nonce: expected 3, got 2',
  },
  {
    code: 'BAD_NONCE',
    name: 'alice nonce 3 -> wrong nonce and zero amount: the nonce is checked before the rule',
    before: { accounts: { alice: coins(1000) }, nonces: { alice: 3 } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 0n, nonce: 4 }),
    message: 'expected 3, got 4',
  },
  {
    code: 'INSUFFICIENT_BALANCE',
    name: 'alice 1 coin -> TRANSFER 1 coin: she cannot also pay the 21_000_000 wei fee',
    before: { accounts: { alice: coins(1) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(1) }),
    message: 'insufficient balance: have 1000000000000000000 wei, need 1000000000021000000 wei',
  },
  {
    code: 'INSUFFICIENT_BALANCE',
    name: 'alice 1 coin -> TRANSFER 1 coin - 21_000_000 wei + 1 wei: 1 wei short',
    before: { accounts: { alice: coins(1) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(1) - 21_000_000n + 1n }),
    message: 'have 1000000000000000000 wei, need 1000000000000000001 wei',
  },
  {
    code: 'INSUFFICIENT_BALANCE',
    name: 'mallory has no account -> TRANSFER 1 wei',
    before: {},
    sender: 'mallory',
    tx: (s) => tx(s, 'mallory', 'TRANSFER', { to: acct('bob'), amount: 1n }),
    message: 'have 0 wei, need 21000001 wei',
  },
  {
    code: 'INSUFFICIENT_BALANCE',
    name: 'carol 100 coins, no validator -> STAKE 100 coins: the fee does not fit',
    before: { accounts: { carol: coins(100) } },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: coins(100) }),
    message: 'have 100000000000000000000 wei, need 100000000000040000000 wei',
  },
  {
    code: 'INSUFFICIENT_BALANCE',
    name: 'carol JAILED with 1000 coins balance -> UNJAIL needs the 1000-coin unjail fee + 50_000_000 wei',
    before: {
      accounts: { carol: coins(1000) },
      validators: { carol: { stake: coins(1000), status: 'JAILED' } },
    },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL'),
    message: 'have 1000000000000000000000 wei, need 1000000000000050000000 wei',
  },
  {
    code: 'INSUFFICIENT_BALANCE',
    name: 'alice 10 coins -> DELEGATE 10 coins to carol',
    before: {
      accounts: { alice: coins(10) },
      validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
    },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: coins(10) }),
    message: 'have 10000000000000000000 wei, need 10000000000035000000 wei',
  },
];

failureTable(
  'the checks every type shares (fee, nonce, balance), in one order: each changes nothing',
  FAILURES,
);

describe('a failing transaction', () => {
  it('a failure between two successes: its nonce is not consumed, the next tx reuses it', () => {
    const chain = chainOf({ accounts: { alice: coins(10) } });
    const s = chain.state;
    const ok1 = tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(1) });
    const bad = tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 0n, nonce: 1 });
    const ok2 = tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(2), nonce: 1 });
    const r = chain.produce([ok1, bad, ok2]);
    assert.deepEqual(
      r.outcomes.map((o) => o.error?.code ?? null),
      [null, 'INVALID_AMOUNT', null],
    );
    assert.equal(r.fees, 42_000_000n);
    assert.equal(chain.balance('alice'), coins(7) - 42_000_000n);
    assert.equal(chain.balance('bob'), coins(3));
    assert.equal(chain.state.accounts.get(acct('alice'))?.nonce, 2);
    assert.equal(chain.balance('val-0'), coins(10) + 42_000_000n);
  });

  it('a transaction made invalid by an earlier one in the same block fails (balance spent first)', () => {
    const chain = chainOf({ accounts: { alice: coins(1) } });
    const s = chain.state;
    const all = tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(1) - 21_000_000n });
    const more = tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 1n, nonce: 1 });
    const r = chain.produce([all, more]);
    assert.equal(r.outcomes[0]?.error, null);
    assert.equal(r.outcomes[1]?.error?.code, 'INSUFFICIENT_BALANCE');
    assert.ok(r.outcomes[1]?.error?.message.includes('have 0 wei, need 21000001 wei'));
    assert.equal(chain.balance('alice'), 0n);
    assert.equal(chain.state.accounts.get(acct('alice'))?.nonce, 1);
  });

  it('executeTx returns the failure with fee 0 and leaves the draft as it was', () => {
    const state = build({ accounts: { alice: coins(1) } });
    const d = new StateDraft(state);
    const ctx = { height: 1, timestamp: GENESIS_TIME, epoch: 0, txHash: '', computeResults: [] };
    const r = executeTx(d, tx(state, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(2) }), ctx);
    assert.equal(r.failure?.code, 'INSUFFICIENT_BALANCE');
    assert.equal(r.fee, 0n);
    assert.equal(stateRoot(d.finish({ height: 0, hash: '', timestamp: GENESIS_TIME })), stateRoot(state));
  });
});

describe('error code coverage', () => {
  it('every TX_ERROR_CODES entry is exercised by a failure table row (execute/*.test.ts), in tx/signing.test.ts or tx/wire.test.ts, or is produced outside the state machine', () => {
    const byExecution = new Set(failureRowCodes());
    const bySignature = ['INVALID_SIGNATURE', 'PUBKEY_MISMATCH'];
    const byFormat = ['INVALID_FORMAT']; // txFromJson's reasons: the edges label them INVALID_FORMAT
    // The code the chain rules never produce: WRONG_CHAIN comes from the node's edge (a tx whose
    // chain_id field names another network; see node/tests/unit/rpc/rpc.test.ts).
    const outside = ['WRONG_CHAIN'];
    const covered = new Set([...byExecution, ...bySignature, ...byFormat, ...outside]);
    assert.deepEqual(
      TX_ERROR_CODES.filter((c) => !covered.has(c)),
      [],
    );
    assert.deepEqual([...byExecution].sort(), [
      'BAD_NONCE',
      'BELOW_MIN_STAKE',
      'FEE_TOO_LOW',
      'INSUFFICIENT_BALANCE',
      'INSUFFICIENT_DELEGATION',
      'INSUFFICIENT_STAKE',
      'INVALID_AMOUNT',
      'INVALID_COMMISSION',
      'INVALID_PAYLOAD',
      'INVALID_UPGRADE',
      'NOT_ACTIVE_VALIDATOR',
      'NOT_JAILED',
      'NO_DELEGATION',
      'NO_UPGRADE',
      'UNKNOWN_VALIDATOR',
      'UPGRADE_PENDING',
      'VALIDATOR_EJECTED',
    ]);
  });
});

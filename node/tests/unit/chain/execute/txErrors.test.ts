/**
 * Every way a transaction fails, one table row each: (before-state, transaction, expected code +
 * message fragment). Execution failures run inside a real block and must change nothing: the
 * block's state root equals that of an empty block on the same state (no fee, no nonce, no
 * write), the sender's account is untouched and the outcome carries the failure. Signature
 * failures (checkTxSignature) and format failures (txFromJson) have tables of their own, beside
 * their rules: tx/signing.test.ts and tx/wire.test.ts.
 *
 * Figures: devnet parameters with the test genesis; the minimum fee is base gas × 1000 wei
 * (TRANSFER 21_000_000, STAKE/UNSTAKE 40_000_000, DELEGATE/UNDELEGATE 35_000_000,
 * UNJAIL 50_000_000, UPDATE_VALIDATOR 30_000_000, SUBMIT_RESULT 80_000_000 wei); min stake 100
 * coins = 100000000000000000000 wei; unjail fee 1000 coins; jailed UNSTAKE penalty amount / 10.
 * `val-0` is the only ACTIVE validator and proposes every block.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BURN_ADDRESS,
  type ChainState,
  checkTx,
  coins,
  executeTx,
  StateDraft,
  stateRoot,
  TREASURY_ADDRESS,
  TX_ERROR_CODES,
  type Tx,
  type TxErrorCode,
} from '../../../../src/chain/index.js';
import { expectedSupply, GENESIS_TIME, heldSupply, tx } from '../../../fixtures.js';
import { acct, build, chainOf, valAddr, type World } from '../../../world.js';

// ---------------------------------------------------------------------------------------------
// Building a before-state by hand (states are plain immutable values).

const MIN_STAKE = '100000000000000000000';

// ---------------------------------------------------------------------------------------------
// Execution failures.

interface ErrorCase {
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

const carolInactive: World = {
  accounts: { carol: coins(1000), alice: coins(1000) },
  validators: { carol: { stake: coins(200), status: 'INACTIVE' } },
};
const carolJailed: World = {
  accounts: { carol: coins(5000), alice: coins(1000) },
  validators: { carol: { stake: coins(1000), status: 'JAILED' } },
};
const carolEjected: World = {
  accounts: { carol: coins(5000), alice: coins(1000) },
  validators: { carol: { stake: 0n, status: 'EJECTED' } },
};

const ERROR_CASES: readonly ErrorCase[] = [
  // FEE_TOO_LOW
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
  // BAD_NONCE
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
  // INSUFFICIENT_BALANCE
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
  // INVALID_AMOUNT
  {
    code: 'INVALID_AMOUNT',
    name: 'alice 1000 coins -> TRANSFER of 0',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'TRANSFER', { to: acct('bob'), amount: 0n }),
    message: 'amount must be a positive integer for TRANSFER, got 0',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'mallory no account -> TRANSFER of 0: the rule is checked before the balance',
    before: {},
    sender: 'mallory',
    tx: (s) => tx(s, 'mallory', 'TRANSFER', { to: acct('bob'), amount: 0n }),
    message: 'amount must be a positive integer for TRANSFER, got 0',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'carol JAILED -> UNJAIL with amount 1',
    before: carolJailed,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL', { amount: 1n }),
    message: 'amount must be 0 for UNJAIL, got 1',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'carol 1000 coins -> STAKE of 0',
    before: { accounts: { carol: coins(1000) } },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: 0n }),
    message: 'amount must be a positive integer for STAKE, got 0',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'carol INACTIVE -> UNSTAKE of 0',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: 0n }),
    message: 'amount must be a positive integer for UNSTAKE, got 0',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'alice -> DELEGATE of 0 to carol',
    before: carolInactive,
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: 0n }),
    message: 'amount must be a positive integer for DELEGATE, got 0',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'alice has 80 coins delegated to carol -> UNDELEGATE of 0',
    before: { ...carolInactive, delegations: [['alice', 'carol', coins(80)]] },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: 0n }),
    message: 'amount must be a positive integer for UNDELEGATE, got 0',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR with amount 5',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { amount: 5n, payload: { name: 'x' } }),
    message: 'amount must be 0 for UPDATE_VALIDATOR, got 5',
  },
  {
    code: 'INVALID_AMOUNT',
    name: 'alice -> SUBMIT_RESULT with amount 1',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) =>
      tx(s, 'alice', 'SUBMIT_RESULT', {
        amount: 1n,
        payload: { taskId: '0f8fad5b-d9cb-469f-a165-70867728950e', resultHash: 'aa'.repeat(32) },
      }),
    message: 'amount must be 0 for SUBMIT_RESULT, got 1',
  },
  // BELOW_MIN_STAKE
  {
    code: 'BELOW_MIN_STAKE',
    name: 'carol 1000 coins, no validator -> first STAKE of 100 coins - 1 wei',
    before: { accounts: { carol: coins(1000) } },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: coins(100) - 1n }),
    message: `stake 99999999999999999999 wei is below the minimum stake ${MIN_STAKE} wei`,
  },
  {
    code: 'BELOW_MIN_STAKE',
    name: 'carol JAILED with 95 coins (slashed below the minimum) -> UNJAIL',
    before: {
      accounts: { carol: coins(5000) },
      validators: { carol: { stake: coins(95), status: 'JAILED' } },
    },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL'),
    message: `stake 95000000000000000000 wei is below the minimum stake ${MIN_STAKE} wei: STAKE more before UNJAIL`,
  },
  // UNKNOWN_VALIDATOR
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'alice has no validator -> UNSTAKE 1 coin',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNSTAKE', { amount: coins(1) }),
    message: `unknown validator ${valAddr('alice')}: this key has not sent STAKE`,
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'alice has no validator -> UNJAIL',
    before: { accounts: { alice: coins(5000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNJAIL'),
    message: `unknown validator ${valAddr('alice')}`,
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'alice has no validator -> UPDATE_VALIDATOR',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UPDATE_VALIDATOR', { payload: { name: 'x' } }),
    message: `unknown validator ${valAddr('alice')}`,
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'nobody is a validator -> alice DELEGATEs 1 coin to nobody',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'DELEGATE', { to: valAddr('nobody'), amount: coins(1) }),
    message: `unknown validator ${valAddr('nobody')}`,
  },
  {
    code: 'UNKNOWN_VALIDATOR',
    name: 'nobody is a validator -> alice UNDELEGATEs 1 coin from nobody',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('nobody'), amount: coins(1) }),
    message: `unknown validator ${valAddr('nobody')}`,
  },
  // NOT_JAILED
  {
    code: 'NOT_JAILED',
    name: 'carol INACTIVE -> UNJAIL',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL'),
    message: `validator ${valAddr('carol')} is not jailed (status INACTIVE)`,
  },
  {
    code: 'NOT_JAILED',
    name: 'val-0 ACTIVE, with no balance at all -> UNJAIL (the rule is checked before the balance)',
    before: {},
    sender: 'val-0',
    tx: (s) => tx(s, 'val-0', 'UNJAIL'),
    message: 'is not jailed (status ACTIVE)',
  },
  // VALIDATOR_EJECTED
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> alice DELEGATEs 1 coin to her',
    before: carolEjected,
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'DELEGATE', { to: valAddr('carol'), amount: coins(1) }),
    message: `validator ${valAddr('carol')} was ejected and takes no delegations`,
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> carol STAKEs 500 coins again',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: coins(500) }),
    message: 'was ejected and cannot stake again',
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> UNJAIL',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNJAIL'),
    message: 'was ejected after its third jailing and cannot act again',
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> UNSTAKE 1 wei',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: 1n }),
    message: 'was ejected after its third jailing and cannot act again',
  },
  {
    code: 'VALIDATOR_EJECTED',
    name: 'carol EJECTED -> UPDATE_VALIDATOR name',
    before: carolEjected,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { name: 'back' } }),
    message: 'was ejected after its third jailing and cannot act again',
  },
  // INVALID_COMMISSION
  {
    code: 'INVALID_COMMISSION',
    name: 'carol 1000 coins -> STAKE 100 coins with commission_rate 1.5',
    before: { accounts: { carol: coins(1000) } },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'STAKE', { amount: coins(100), payload: { commissionPpm: 1_500_000 } }),
    message: 'commission_rate must be between 0 and 1, got 1.5',
  },
  {
    code: 'INVALID_COMMISSION',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR commission_rate 1.000001',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { commissionPpm: 1_000_001 } }),
    message: 'commission_rate must be between 0 and 1, got 1.000001',
  },
  // INSUFFICIENT_STAKE
  {
    code: 'INSUFFICIENT_STAKE',
    name: 'carol INACTIVE with 200 coins -> UNSTAKE 200 coins + 1 wei',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: coins(200) + 1n }),
    message: 'unstake 200000000000000000001 wei exceeds stake 200000000000000000000 wei',
  },
  {
    code: 'INSUFFICIENT_STAKE',
    name: 'carol JAILED with 1000 coins -> UNSTAKE 950 coins: 950 + 95 penalty > 1000',
    before: carolJailed,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: coins(950) }),
    message:
      'unstake 950000000000000000000 wei plus the jailed penalty 95000000000000000000 wei exceeds stake 1000000000000000000000 wei',
  },
  {
    code: 'INSUFFICIENT_STAKE',
    name: 'carol JAILED with 110 coins -> UNSTAKE 100 coins + 1 wei: 1 wei over with the 10-coin penalty',
    before: {
      accounts: { carol: coins(10) },
      validators: { carol: { stake: coins(110), status: 'JAILED' } },
    },
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UNSTAKE', { amount: coins(100) + 1n }),
    message: 'unstake 100000000000000000001 wei plus the jailed penalty 10000000000000000000 wei',
  },
  // NO_DELEGATION
  {
    code: 'NO_DELEGATION',
    name: 'alice has no delegation to carol -> UNDELEGATE 1 coin',
    before: carolInactive,
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(1) }),
    message: `${acct('alice')} has no delegation to ${valAddr('carol')}`,
  },
  {
    code: 'NO_DELEGATION',
    name: 'bob (not alice) has 80 coins delegated to carol -> alice UNDELEGATE 1 coin',
    before: { ...carolInactive, delegations: [['bob', 'carol', coins(80)]] },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(1) }),
    message: `${acct('alice')} has no delegation to ${valAddr('carol')}`,
  },
  // INSUFFICIENT_DELEGATION
  {
    code: 'INSUFFICIENT_DELEGATION',
    name: 'alice has 80 coins delegated to carol -> UNDELEGATE 80 coins + 1 wei',
    before: { ...carolInactive, delegations: [['alice', 'carol', coins(80)]] },
    sender: 'alice',
    tx: (s) => tx(s, 'alice', 'UNDELEGATE', { to: valAddr('carol'), amount: coins(80) + 1n }),
    message: 'undelegate 80000000000000000001 wei exceeds delegation 80000000000000000000 wei',
  },
  // INVALID_PAYLOAD
  {
    code: 'INVALID_PAYLOAD',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR with an empty payload',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: {} }),
    message: 'UPDATE_VALIDATOR needs at least one of name, commission_rate, reward_address',
  },
  {
    code: 'INVALID_PAYLOAD',
    name: 'carol INACTIVE -> UPDATE_VALIDATOR with the treasury address as reward_address',
    before: carolInactive,
    sender: 'carol',
    tx: (s) => tx(s, 'carol', 'UPDATE_VALIDATOR', { payload: { rewardAddress: TREASURY_ADDRESS } }),
    message: `reward_address ${TREASURY_ADDRESS} is a reserved address (burn or treasury)`,
  },
  {
    code: 'INVALID_PAYLOAD',
    name: 'alice 1000 coins -> STAKE with the burn address as reward_address',
    before: { accounts: { alice: coins(1000) } },
    sender: 'alice',
    tx: (s) =>
      tx(s, 'alice', 'STAKE', { amount: BigInt(MIN_STAKE), payload: { rewardAddress: BURN_ADDRESS } }),
    message: `reward_address ${BURN_ADDRESS} is a reserved address (burn or treasury)`,
  },
];

describe('transaction failures inside a block change nothing', () => {
  for (const c of ERROR_CASES) {
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

// ---------------------------------------------------------------------------------------------

describe('error code coverage', () => {
  it('every TX_ERROR_CODES entry is exercised here, in tx/signing.test.ts or tx/wire.test.ts, or is produced outside the state machine', () => {
    const byExecution = new Set(ERROR_CASES.map((c) => c.code));
    const bySignature = ['INVALID_SIGNATURE', 'PUBKEY_MISMATCH'];
    const byFormat = ['INVALID_FORMAT']; // txFromJson's reasons: the edges label them INVALID_FORMAT
    // The code the chain rules never produce: WRONG_CHAIN comes from the node's edge (a tx whose
    // chain_id field names another network; see node/tests/node/rpc.test.ts).
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
      'NOT_JAILED',
      'NO_DELEGATION',
      'UNKNOWN_VALIDATOR',
      'VALIDATOR_EJECTED',
    ]);
  });
});

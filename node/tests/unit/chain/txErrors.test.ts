/**
 * Every way a transaction fails, one table row each: (before-state, transaction, expected code +
 * message fragment). Execution failures run inside a real block and must change nothing: the
 * block's state root equals that of an empty block on the same state (no fee, no nonce, no
 * write), the sender's account is untouched and the outcome carries the failure. Signature
 * failures (checkTxSignature) and format failures (txFromJson) have tables of their own.
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
  BlockError,
  BURN_ADDRESS,
  type ChainState,
  checkTx,
  checkTxSignature,
  coins,
  executeTx,
  StateDraft,
  signTx,
  stateRoot,
  TREASURY_ADDRESS,
  TX_ERROR_CODES,
  type Tx,
  type TxErrorCode,
  txFromJson,
  txToJson,
} from '../../../src/chain/index.js';
import { expectedSupply, GENESIS_TIME, heldSupply, key, tx } from '../../fixtures.js';
import { acct, build, chainOf, valAddr, type World } from '../../world.js';

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
// Signature failures (checkTxSignature), checked once per transaction before execution.

describe('signature failures', () => {
  const state = build({ accounts: { alice: coins(1000) } });
  const good = tx(state, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(5) });
  const testnetSigned = signTx(
    {
      type: 'TRANSFER',
      from: acct('alice'),
      to: acct('bob'),
      amount: coins(5),
      fee: 21_000_000n,
      nonce: 0,
      gasPrice: 0,
      gasLimit: 0,
      timestamp: GENESIS_TIME,
      payload: {},
    },
    key('alice').privateKey,
    'chain-testnet-1',
  );

  const rows: readonly {
    name: string;
    tx: Tx;
    chainId: string;
    code: TxErrorCode | null;
    message?: string;
  }[] = [
    { name: 'untouched transaction on its own chain', tx: good, chainId: 'chain-devnet-1', code: null },
    {
      name: 'amount tampered with after signing (5 coins -> 5 coins + 1 wei)',
      tx: { ...good, amount: coins(5) + 1n },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'not made by pub_key over this transaction for chain chain-devnet-1',
    },
    {
      name: 'fee tampered with after signing',
      tx: { ...good, fee: good.fee + 1n },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'invalid signature',
    },
    {
      name: 'recipient swapped after signing',
      tx: { ...good, to: acct('mallory') },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'invalid signature',
    },
    {
      name: 'from_address is bob while pub_key is alice’s',
      tx: { ...good, from: acct('bob') },
      chainId: 'chain-devnet-1',
      code: 'PUBKEY_MISMATCH',
      message: `from_address ${acct('bob')} is not the address of pub_key`,
    },
    {
      name: 'from_address and pub_key both bob’s, signature alice’s',
      tx: { ...good, from: acct('bob'), pubKey: key('bob').pubKey },
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'invalid signature',
    },
    {
      name: 'signed for chain-testnet-1, checked on chain-devnet-1',
      tx: testnetSigned,
      chainId: 'chain-devnet-1',
      code: 'INVALID_SIGNATURE',
      message: 'for chain chain-devnet-1',
    },
    {
      name: 'signed for chain-testnet-1, checked on chain-testnet-1',
      tx: testnetSigned,
      chainId: 'chain-testnet-1',
      code: null,
    },
  ];

  for (const row of rows) {
    it(`${row.code ?? 'valid'}: ${row.name}`, () => {
      const failure = checkTxSignature(row.tx, row.chainId);
      if (row.code === null) assert.equal(failure, null);
      else {
        assert.equal(failure?.code, row.code);
        assert.ok(failure?.message.includes(row.message ?? ''), failure?.message);
      }
    });
  }

  it('a block carrying a tampered or foreign-chain transaction is refused whole (BAD_TX_SIGNATURE)', () => {
    for (const bad of [{ ...good, amount: coins(5) + 1n }, testnetSigned, { ...good, from: acct('bob') }]) {
      const chain = chainOf({ accounts: { alice: coins(1000) } });
      const before = chain.state;
      assert.throws(
        () => chain.produce([bad]),
        (e: unknown) => e instanceof BlockError && e.code === 'BAD_TX_SIGNATURE',
      );
      assert.equal(chain.state, before);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Format failures (txFromJson): the RPC's 400 "Invalid transaction format".

describe('format failures', () => {
  const state = build({ accounts: { alice: coins(1000) } });
  const transfer = txToJson(tx(state, 'alice', 'TRANSFER', { to: acct('bob'), amount: coins(5) }));
  const delegate = txToJson(tx(state, 'alice', 'DELEGATE', { to: valAddr('val-0'), amount: coins(5) }));
  const stake = txToJson(tx(state, 'alice', 'STAKE', { amount: coins(100) }));
  const submit = txToJson(
    tx(state, 'alice', 'SUBMIT_RESULT', {
      payload: { taskId: '0f8fad5b-d9cb-469f-a165-70867728950e', resultHash: 'aa'.repeat(32) },
    }),
  );
  const { to_address: _dropped, ...transferWithoutTo } = transfer;

  it('accepts the untouched JSON and gives back the same transaction', () => {
    const r = txFromJson(JSON.parse(JSON.stringify(transfer)));
    assert.ok(r.ok);
    assert.deepEqual(txToJson(r.tx), transfer);
    assert.equal(r.tx.amount, coins(5));
  });

  it('accepts commission_rate 1.5 as format (the range is the rule INVALID_COMMISSION)', () => {
    const r = txFromJson({ ...stake, payload: { commission_rate: 1.5 } });
    assert.ok(r.ok);
    assert.equal(r.tx.payload.commissionPpm, 1_500_000);
  });

  const rows: readonly { name: string; input: unknown; reason: string }[] = [
    { name: 'a string', input: 'TRANSFER', reason: 'body must be a JSON object' },
    { name: 'null', input: null, reason: 'body must be a JSON object' },
    { name: 'an array', input: [transfer], reason: 'body must be a JSON object' },
    { name: 'an unknown field', input: { ...transfer, memo: 'x' }, reason: 'unknown field memo' },
    { name: 'an unknown tx_type', input: { ...transfer, tx_type: 'MINT' }, reason: 'tx_type must be one of' },
    {
      name: 'from_address with the validator prefix',
      input: { ...transfer, from_address: valAddr('alice') },
      reason: 'from_address must be a coin1 address',
    },
    {
      name: 'pub_key in upper-case hex',
      input: { ...transfer, pub_key: transfer.pub_key.toUpperCase() },
      reason: 'pub_key must be 66 lowercase hex',
    },
    {
      name: 'pub_key with a 0x prefix',
      input: { ...transfer, pub_key: `0x${transfer.pub_key}` },
      reason: 'pub_key must be 66 lowercase hex',
    },
    {
      name: 'signature with a non-hex character',
      input: { ...transfer, signature: `zz${transfer.signature.slice(2)}` },
      reason: 'signature must be 130 lowercase hex',
    },
    {
      name: 'signature one byte short',
      input: { ...transfer, signature: transfer.signature.slice(2) },
      reason: 'signature must be 130 lowercase hex',
    },
    {
      name: 'amount "01" (leading zero)',
      input: { ...transfer, amount: '01' },
      reason: 'amount must be decimal digits',
    },
    { name: 'amount "-1"', input: { ...transfer, amount: '-1' }, reason: 'amount must be decimal digits' },
    { name: 'amount "1.5"', input: { ...transfer, amount: '1.5' }, reason: 'amount must be decimal digits' },
    { name: 'amount ""', input: { ...transfer, amount: '' }, reason: 'amount must be decimal digits' },
    {
      name: 'amount 2^256',
      input: { ...transfer, amount: (1n << 256n).toString() },
      reason: 'amount must be decimal digits below 2^256',
    },
    {
      name: 'amount as a JSON number',
      input: { ...transfer, amount: 5 },
      reason: 'amount must be a decimal string',
    },
    { name: 'fee "1e6"', input: { ...transfer, fee: '1e6' }, reason: 'fee must be decimal digits' },
    {
      name: 'nonce -1',
      input: { ...transfer, nonce: -1 },
      reason: 'nonce must be an integer from 0 to 2^53-1',
    },
    { name: 'nonce 1.5', input: { ...transfer, nonce: 1.5 }, reason: 'nonce must be an integer' },
    { name: 'gas_price "0"', input: { ...transfer, gas_price: '0' }, reason: 'gas_price must be an integer' },
    {
      name: 'TRANSFER to_address with the validator prefix',
      input: { ...transfer, to_address: valAddr('bob') },
      reason: 'to_address must be a coin1 address for TRANSFER',
    },
    {
      name: 'DELEGATE to_address with the account prefix',
      input: { ...delegate, to_address: acct('val-0') },
      reason: 'to_address must be a coinvalcons1 address for DELEGATE',
    },
    {
      name: 'TRANSFER to_address with a broken checksum',
      input: {
        ...transfer,
        to_address: `${acct('bob').slice(0, -1)}${acct('bob').endsWith('q') ? 'p' : 'q'}`,
      },
      reason: 'to_address must be a coin1 address for TRANSFER',
    },
    {
      name: 'TRANSFER without to_address',
      input: transferWithoutTo,
      reason: 'to_address is required for TRANSFER',
    },
    {
      name: 'TRANSFER with to_address null',
      input: { ...transfer, to_address: null },
      reason: 'to_address is required for TRANSFER',
    },
    {
      name: 'STAKE with a to_address',
      input: { ...stake, to_address: acct('bob') },
      reason: 'to_address must be absent for STAKE',
    },
    {
      name: 'TRANSFER with payload.name',
      input: { ...transfer, payload: { name: 'x' } },
      reason: 'payload field name is not allowed for TRANSFER',
    },
    {
      name: 'STAKE with payload.memo',
      input: { ...stake, payload: { memo: 'hi' } },
      reason: 'payload field memo is not allowed for STAKE',
    },
    {
      name: 'UNSTAKE with payload.commission_rate',
      input: { ...stake, tx_type: 'UNSTAKE', payload: { commission_rate: 0.1 } },
      reason: 'payload field commission_rate is not allowed for UNSTAKE',
    },
    {
      name: 'payload not an object',
      input: { ...transfer, payload: 'memo' },
      reason: 'payload must be an object',
    },
    {
      name: 'SUBMIT_RESULT without result_hash',
      input: { ...submit, payload: { task_id: '0f8fad5b-d9cb-469f-a165-70867728950e' } },
      reason: 'payload.result_hash is required for SUBMIT_RESULT',
    },
    {
      name: 'SUBMIT_RESULT with an upper-case task_id',
      input: { ...submit, payload: { ...submit.payload, task_id: '0F8FAD5B-D9CB-469F-A165-70867728950E' } },
      reason: 'payload.task_id must be a lowercase UUID',
    },
    {
      name: 'commission_rate with 7 decimals',
      input: { ...stake, payload: { commission_rate: 0.1234567 } },
      reason: 'payload.commission_rate must be a non-negative number with at most 6 decimals',
    },
    {
      name: 'commission_rate negative',
      input: { ...stake, payload: { commission_rate: -0.1 } },
      reason: 'payload.commission_rate must be a non-negative number',
    },
    {
      name: 'reward_address with the validator prefix',
      input: { ...stake, payload: { reward_address: valAddr('alice') } },
      reason: 'payload.reward_address must be a coin1 address',
    },
    {
      name: 'memo of 257 bytes',
      input: { ...transfer, payload: { memo: 'm'.repeat(257) } },
      reason: 'payload.memo must be a well-formed string of at most 256 bytes',
    },
    { name: 'chain_id a number', input: { ...transfer, chain_id: 1 }, reason: 'chain_id must be a string' },
  ];

  for (const row of rows) {
    it(`rejects ${row.name}`, () => {
      const r = txFromJson(row.input);
      assert.equal(r.ok, false);
      if (!r.ok)
        assert.ok(r.reason.includes(row.reason), `reason ${JSON.stringify(r.reason)} lacks ${row.reason}`);
    });
  }
});

// ---------------------------------------------------------------------------------------------

describe('error code coverage', () => {
  it('every TX_ERROR_CODES entry is exercised above or is produced outside the state machine', () => {
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

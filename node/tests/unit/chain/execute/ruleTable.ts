/**
 * The runner of the transaction rule tables (execute/<type>.test.ts): one row per situation.
 * Every row has exact wei figures a reader can check by hand. Each row is (before-state,
 * transactions, expected after-state); the row runs through a real block (buildBlock, then
 * applyBlock re-checks it) on top of a hand-built state.
 *
 * Figures used throughout (devnet parameters, test genesis: unbonding_blocks 4, epoch_length 10):
 *   min gas price 1000 wei, so the minimum fee is base gas × 1000 wei:
 *     TRANSFER 21_000_000 · STAKE/UNSTAKE 40_000_000 · DELEGATE/UNDELEGATE 35_000_000
 *     UNJAIL 50_000_000 · UPDATE_VALIDATOR 30_000_000 · SUBMIT_RESULT 80_000_000 wei
 *   block reward 10 coins; min stake 100 coins; unjail fee 1000 coins (burned);
 *   jailed UNSTAKE penalty amount / 10 (burned); default commission 10%.
 * The only ACTIVE validator is the genesis validator `val-0` (stake 1000 coins, no account at
 * genesis): it proposes every block and receives reward + fees, so its balance after one block is
 * 10 coins + the fees of the block's successful transactions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type BlockResult,
  BURN_ADDRESS,
  type ChainState,
  coins,
  TREASURY_ADDRESS,
  type Tx,
  type TxType,
  type Validator,
} from '../../../../src/chain/index.js';
import { expectedSupply, heldSupply, type TestChain } from '../../../fixtures.js';
import { acct, chainOf, valAddr, type World } from '../../../world.js';

// ---------------------------------------------------------------------------------------------
// Building a before-state by hand (states are plain immutable values).

// ---------------------------------------------------------------------------------------------
// The expected after-state and the runner.

export const FEE = {
  TRANSFER: 21_000_000n,
  STAKE: 40_000_000n,
  UNSTAKE: 40_000_000n,
  DELEGATE: 35_000_000n,
  UNDELEGATE: 35_000_000n,
  UNJAIL: 50_000_000n,
  UPDATE_VALIDATOR: 30_000_000n,
  SUBMIT_RESULT: 80_000_000n,
  UPGRADE_PLAN: 30_000_000n,
  UPGRADE_CANCEL: 30_000_000n,
} as const satisfies Record<TxType, bigint>;

export const REWARD = coins(10);

interface UnbondingRow {
  readonly delegator: string;
  readonly validator: string;
  readonly amount: bigint;
  readonly creationHeight: number;
  readonly completionHeight: number;
}

interface After {
  /** label -> exact balance and nonce; unlisted accounts are not checked. */
  readonly accounts?: Readonly<Record<string, { balance: bigint; nonce: number }>>;
  /** label -> the listed validator fields; null: no such validator. */
  readonly validators?: Readonly<Record<string, Partial<Validator> | null>>;
  /** "delegator>validator" (labels) -> amount and created height; null: no delegation. */
  readonly delegations?: Readonly<Record<string, { amount: bigint; createdHeight: number } | null>>;
  /** The whole unbonding queue (default: empty), delegator and validator as labels. */
  readonly unbonding?: readonly UnbondingRow[];
  /** totals.burned (default 0). */
  readonly burned?: bigint;
  /** totals.treasury (default 0). */
  readonly treasury?: bigint;
}

export interface RuleCase {
  /** "<what the before-state is> -> <what the transaction does>" */
  readonly name: string;
  readonly before: World;
  readonly txs: (s: ChainState) => Tx[];
  readonly after: After;
  readonly also?: (chain: TestChain, r: BlockResult) => void;
}

function pick(v: Validator, fields: Partial<Validator>): Partial<Validator> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(fields)) out[k] = v[k as keyof Validator];
  return out as Partial<Validator>;
}

function runRuleCase(c: RuleCase): void {
  const chain = chainOf(c.before);
  const txs = c.txs(chain.state);
  const r = chain.produce(txs);
  const s = chain.state;

  assert.deepEqual(
    r.outcomes.map((o) => o.error),
    txs.map(() => null),
    'every transaction of the row executes',
  );
  assert.equal(
    r.fees,
    txs.reduce((sum, t) => sum + t.fee, 0n),
    'the fees collected are the transactions’ fees',
  );
  assert.equal(r.reward, REWARD);
  assert.equal(s.totals.minted, REWARD);
  assert.equal(s.totals.burned, c.after.burned ?? 0n, 'totals.burned');
  assert.equal(s.totals.treasury, c.after.treasury ?? 0n, 'totals.treasury');
  for (const reserved of [BURN_ADDRESS, TREASURY_ADDRESS])
    assert.equal(s.accounts.get(reserved), undefined, `no account at the reserved address ${reserved}`);
  assert.equal(heldSupply(s), expectedSupply(s), 'no wei created or lost');

  for (const [label, want] of Object.entries(c.after.accounts ?? {})) {
    const a = s.accounts.get(acct(label));
    assert.deepEqual({ balance: a?.balance ?? 0n, nonce: a?.nonce ?? 0 }, want, `account ${label}`);
  }
  for (const [label, want] of Object.entries(c.after.validators ?? {})) {
    const v = s.validators.get(valAddr(label));
    if (want === null) assert.equal(v, undefined, `validator ${label} should not exist`);
    else {
      assert.ok(v, `validator ${label} exists`);
      assert.deepEqual(pick(v, want), want, `validator ${label}`);
    }
  }
  for (const [pair, want] of Object.entries(c.after.delegations ?? {})) {
    const [delegator = '', validator = ''] = pair.split('>');
    const d = s.delegations.get(valAddr(validator))?.get(acct(delegator));
    if (want === null) assert.equal(d, undefined, `delegation ${pair} should be gone`);
    else {
      assert.ok(d, `delegation ${pair} exists`);
      assert.deepEqual({ amount: d.amount, createdHeight: d.createdHeight }, want, `delegation ${pair}`);
    }
  }
  assert.deepEqual(
    s.unbonding.map((u) => ({
      delegator: u.delegator,
      validator: u.validator,
      amount: u.amount,
      creationHeight: u.creationHeight,
      completionHeight: u.completionHeight,
    })),
    (c.after.unbonding ?? []).map((u) => ({
      ...u,
      delegator: acct(u.delegator),
      validator: valAddr(u.validator),
    })),
    'unbonding queue',
  );
  c.also?.(chain, r);
}

export function table(title: string, cases: readonly RuleCase[]): void {
  describe(title, () => {
    for (const c of cases) it(c.name, () => runRuleCase(c));
  });
}

// ---------------------------------------------------------------------------------------------

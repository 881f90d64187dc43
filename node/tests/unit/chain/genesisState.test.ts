/**
 * The genesis extension for a chain started from another's state (issue 27, a forked devnet):
 * accounts' nonces, retired validators (INACTIVE, no stake), delegations (setting their
 * validators' totals) and unbonding entries are read into the state, counted in the genesis
 * supply, and each bad entry is named. On the chain that follows: a retired validator is never
 * activated by an epoch boundary, its delegator can undelegate, and an unbonding entry pays out
 * at its completion height.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, type GenesisJson, loadGenesis } from '../../../src/chain/index.js';
import { expectedSupply, genesisJson, heldSupply, key, TestChain, tx } from '../../fixtures.js';

const OLD = key('old-val');
const ALICE = key('alice');
const BOB = key('bob');

function forkJson(extra: Partial<GenesisJson> = {}): GenesisJson {
  const base = genesisJson({ accounts: { alice: coins(1000), bob: coins(10) } });
  return {
    ...base,
    accounts: base.accounts!.map((a) => (a.address === ALICE.account ? { ...a, nonce: 7 } : a)),
    retired_validators: [{ pub_key: OLD.pubKey, name: 'old', commission_rate: 0.2, jail_count: 1 }],
    delegations: [
      { delegator: ALICE.account, validator: OLD.validator, amount: coins(30).toString(), created_height: 0 },
      { delegator: BOB.account, validator: key('val-0').validator, amount: coins(5).toString() },
    ],
    unbonding: [
      { delegator: BOB.account, validator: OLD.validator, amount: coins(3).toString(), completion_height: 6 },
      {
        delegator: ALICE.account,
        validator: OLD.validator,
        amount: coins(2).toString(),
        completion_height: 2,
      },
    ],
    ...extra,
  };
}

function problemsOf(json: unknown): string[] {
  const r = loadGenesis(json);
  return r.ok ? [] : r.problems;
}

describe("a fork's genesis", () => {
  it('reads nonces, retired validators, delegations and unbonding into the state and its supply', () => {
    const r = loadGenesis(forkJson());
    assert.ok(r.ok, r.ok ? '' : r.problems.join('; '));
    const s = r.genesis.state;
    assert.equal(s.accounts.get(ALICE.account)?.nonce, 7);
    assert.equal(s.accounts.get(BOB.account)?.nonce, 0);
    const old = s.validators.get(OLD.validator)!;
    assert.deepEqual(
      [old.status, old.stake, old.totalDelegated, old.commissionPpm, old.jailCount, old.operator, old.name],
      ['INACTIVE', 0n, coins(30), 200_000, 1, OLD.account, 'old'],
    );
    assert.equal(s.validators.get(key('val-0').validator)?.totalDelegated, coins(5));
    assert.equal(s.delegations.get(OLD.validator)?.get(ALICE.account)?.amount, coins(30));
    assert.deepEqual(
      s.unbonding.map((u) => [u.seq, u.completionHeight, u.amount]),
      [
        [1, 2, coins(2)],
        [0, 6, coins(3)],
      ],
    );
    assert.equal(s.nextUnbondingSeq, 2);
    assert.equal(s.totals.genesisSupply, heldSupply(s));
    assert.equal(s.totals.genesisSupply, coins(1010 + 1000 + 30 + 5 + 5));
  });

  it('names every bad entry', () => {
    const problems = problemsOf(
      forkJson({
        accounts: [{ address: ALICE.account, balance: '1', nonce: -1 }],
        retired_validators: [{ pub_key: key('val-0').pubKey }, { pub_key: 'zz' }],
        delegations: [
          { delegator: ALICE.account, validator: key('nobody').validator, amount: '5' },
          { delegator: 'coin1bad', validator: OLD.validator, amount: '5' },
          { delegator: ALICE.account, validator: key('val-0').validator, amount: '0' },
        ],
        unbonding: [{ delegator: BOB.account, validator: OLD.validator, amount: '1', completion_height: 0 }],
      }),
    );
    assert.deepEqual(problems, [
      'accounts[0].nonce must be a non-negative integer',
      "retired_validators[0].pub_key is also a validator's (or listed twice)",
      'retired_validators[1].pub_key must be a compressed secp256k1 public key (66 lowercase hex)',
      `delegations[0].validator ${key('nobody').validator} is no listed validator`,
      'delegations[1].delegator must be a coin1 address',
      'delegations[2].amount must be a positive decimal string of wei',
      'unbonding[0].completion_height must be a positive integer',
    ]);
    assert.deepEqual(problemsOf({ ...forkJson(), delegations: {} }), ['delegations must be an array']);
  });

  it('on the chain that follows: the retired validator stays out, its delegator undelegates, entries pay out', () => {
    const r = loadGenesis(forkJson());
    assert.ok(r.ok);
    const chain = new TestChain(r.genesis.state);
    chain.knowKey('val-0');
    const before = chain.balance('alice');
    chain.produce();
    chain.produce();
    assert.equal(chain.balance('alice'), before + coins(2), 'the entry completing at 2 paid out');
    const undelegate = tx(chain.state, 'alice', 'UNDELEGATE', { to: OLD.validator, amount: coins(30) });
    assert.equal(undelegate.nonce, 7);
    chain.produce([undelegate]);
    assert.equal(chain.results.at(-1)?.outcomes[0]?.error, null);
    assert.equal(chain.state.delegations.get(OLD.validator), undefined);
    chain.produceUntil(12);
    assert.equal(chain.state.validators.get(OLD.validator)?.status, 'INACTIVE', 'past an epoch boundary');
    assert.equal(heldSupply(chain.state), expectedSupply(chain.state));
  });
});

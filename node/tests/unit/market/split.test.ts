/**
 * The split, as properties over any reward and any number of signers (fast-check): the parts sum
 * to the reward exactly; each of burn, worker and the validators' pool is its floor; every
 * validator gets the same; the treasury gets its 5% and every wei the floors leave, never a wei
 * less than 5% nor more than 5% + k; and a plan sends only the positive parts, with consecutive
 * nonces, each a TRANSFER signed by the escrow.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BURN_ADDRESS,
  checkTxSignature,
  MAX_U256,
  TREASURY_ADDRESS,
  txFromJson,
  txHash,
} from '../../../src/chain/index.js';
import { planPayouts } from '../../../src/market/payouts.js';
import { splitReward } from '../../../src/market/split.js';
import { key } from '../../fixtures.js';

const signersArb = fc
  .integer({ min: 0, max: 30 })
  .map((k) => Array.from({ length: k }, (_, i) => key(`v${i}`).account));
const rewardArb = fc.oneof(fc.bigInt({ min: 1n, max: 10_000n }), fc.bigInt({ min: 1n, max: MAX_U256 }));

describe('the split', () => {
  it('sums to the reward; floors for burn, worker and pool; equal validators; the rest to the treasury', () => {
    fc.assert(
      fc.property(rewardArb, signersArb, (r, signers) => {
        const parts = splitReward(r, 'coin1worker', signers);
        assert.equal(
          parts.reduce((a, p) => a + p.amount, 0n),
          r,
        );
        const by = (share: string) => parts.filter((p) => p.share === share);
        assert.deepEqual(by('burn'), [{ share: 'burn', to: BURN_ADDRESS, amount: (60n * r) / 100n }]);
        assert.deepEqual(by('worker'), [{ share: 'worker', to: 'coin1worker', amount: (25n * r) / 100n }]);
        const pool = (10n * r) / 100n;
        const each = signers.length === 0 ? 0n : pool / BigInt(signers.length);
        assert.deepEqual(
          by('validator').map((p) => [p.to, p.amount]),
          signers.map((s) => [s, each]),
        );
        const [treasury] = by('treasury');
        assert.equal(treasury?.to, TREASURY_ADDRESS);
        assert.ok(treasury!.amount >= (5n * r) / 100n, 'at least its 5%');
        // Floors leave < 1 wei each of burn and worker, < 1 + k of the pool (k = 0: the pool).
        const slack = signers.length === 0 ? pool + 3n : BigInt(signers.length) + 3n;
        assert.ok(treasury!.amount <= (5n * r) / 100n + slack, 'its 5% and only what floors left');
        assert.deepEqual(
          parts.map((p) => p.share),
          ['burn', 'worker', ...signers.map(() => 'validator'), 'treasury'],
        );
      }),
      { seed: 17, numRuns: 500 },
    );
  });

  it('refuses a reward of 0', () => {
    assert.throws(() => splitReward(0n, 'coin1w', []), /a reward is positive/);
  });

  it('a plan: the positive parts only, consecutive nonces, TRANSFERs signed by the escrow with the share in the memo', () => {
    const escrow = {
      address: key('escrow').account,
      privateKey: key('escrow').privateKey,
      chainId: 'chain-devnet-1',
      fee: 21_000_000n,
    };
    // 3 wei, two signers: burn 1, worker 0, each validator 0, treasury 2.
    const parts = splitReward(3n, key('w').account, [key('a').account, key('b').account]);
    assert.deepEqual(
      parts.map((p) => p.amount),
      [1n, 0n, 0n, 0n, 2n],
    );
    const plan = planPayouts(escrow, 'task', parts, 7, 1_700_000_000);
    assert.deepEqual(
      plan.map((p) => [p.share, p.amount, p.nonce, p.status]),
      [
        ['burn', '1', 7, 'planned'],
        ['treasury', '2', 8, 'planned'],
      ],
    );
    for (const p of plan) {
      const parsed = txFromJson(p.tx);
      assert.ok(parsed.ok);
      assert.equal(checkTxSignature(parsed.tx, escrow.chainId), null);
      assert.equal(txHash(parsed.tx, escrow.chainId), p.tx_hash);
      assert.equal(parsed.tx.from, escrow.address);
      assert.equal(parsed.tx.fee, escrow.fee);
      assert.equal(parsed.tx.payload.memo, `market-payout:task:${p.share}`);
    }
  });
});

/**
 * 3 Transfers: a transfer is received, then confirmed on every node at one height with
 * confirmations growing (current height - block height + 1); balances and nonces exact to the wei,
 * fee included, on every node; the same nonce again is rejected; an unfunded sender is rejected
 * for insufficient balance.
 */
import assert from 'node:assert/strict';
import { COIN, feeOf, Wallet } from '@chain-devnet/devnet/testkit';
import { waitFor } from '@chain-devnet/kit/wait';
import type { Scenario } from './scenario.js';

export const transfers: Scenario = {
  id: 3,
  title: 'transfers: confirmed everywhere, exact balances and nonces, replays and unfunded senders rejected',
  async run(net) {
    const { chain, txs } = net;
    const names = net.names();
    await net.synced();
    const alice = Wallet.random('alice');
    const bob = Wallet.random('bob');
    const funded = 10n * COIN;
    await txs.fund(txs.faucet(), [alice], funded, names[0]!);

    // An amount with every wei digit significant.
    const amount = 1_234_567_890_123_456_789n;
    const fee = feeOf('TRANSFER', net.params);
    const via = names[1 % names.length]!;
    const tx = await txs.build(alice, { type: 'TRANSFER', to: bob.address, amount, nonce: 0 }, via);
    const sent = await txs.sendBuilt(tx, via);
    assert.equal(sent.submit.status, 'received', `${via}: ${JSON.stringify(sent.submit)}`);
    const first = await chain.receipt(via, sent.hash);
    assert.ok(
      first !== null && ['pending', 'confirmed'].includes(first.status),
      `${via}: the receipt right after it was received: ${JSON.stringify(first)}`,
    );
    const height = await chain.confirmedEverywhere(sent.hash);

    // Confirmations grow, and are current height - block height + 1 at every read.
    for (const n of names) {
      const seen = new Set<number>();
      await waitFor(`${n}: confirmations of ${sent.hash} to grow`, net.within(6), async () => {
        const { height: h, value: r } = await chain.consistent(n, () => net.node(n).rpc.receipt(sent.hash));
        assert.equal(r.status, 'confirmed', `${n} at height ${h}: receipt ${JSON.stringify(r)}`);
        assert.equal(r.block_height, height, `${n} at height ${h}: block_height ${r.block_height}`);
        assert.equal(
          r.confirmations,
          h - height + 1,
          `${n} at height ${h}: confirmations ${r.confirmations}, expected ${h - height + 1}`,
        );
        seen.add(r.confirmations);
        return seen.size >= 2;
      });
    }

    // The block holds the transaction as it was signed.
    for (const n of names) {
      const b = await chain.block(n, height);
      const inBlock = b.txs.find((t) => t.tx_hash === sent.hash)!;
      assert.equal(inBlock.amount, amount.toString(), `${n} at height ${height}: amount in the block`);
      assert.equal(inBlock.fee, fee.toString(), `${n} at height ${height}: fee in the block`);
      assert.equal(inBlock.from_address, alice.address, `${n} at height ${height}: from_address`);
      assert.equal(inBlock.to_address, bob.address, `${n} at height ${height}: to_address`);
    }

    // Balances and nonces, exact, on every node.
    const expectBalances = async () => {
      for (const n of names) {
        const { height: h, value } = await chain.consistent(n, async () => ({
          a: await net.node(n).rpc.balance(alice.address),
          b: await net.node(n).rpc.balance(bob.address),
        }));
        assert.equal(BigInt(value.a.balance), funded - amount - fee, `${n} at height ${h}: alice's balance`);
        assert.equal(value.a.nonce, 1, `${n} at height ${h}: alice's nonce`);
        assert.equal(BigInt(value.b.balance), amount, `${n} at height ${h}: bob's balance`);
        assert.equal(value.b.nonce, 0, `${n} at height ${h}: bob's nonce`);
      }
    };
    await expectBalances();

    // The same transaction again, and another one with the used nonce: rejected by every node.
    const reused = await txs.build(alice, { type: 'TRANSFER', to: bob.address, amount: 1n, nonce: 0 }, via);
    for (const n of names) {
      const at = `${n} at height ${await chain.height(n)}`;
      const again = await txs.sendBuilt(tx, n);
      assert.equal(
        again.submit.status,
        'rejected',
        `${at}: the confirmed transaction sent again was ${again.submit.status}`,
      );
      const other = await txs.sendBuilt(reused, n);
      assert.equal(
        other.submit.status,
        'rejected',
        `${at}: a second transaction with nonce 0 was ${other.submit.status}`,
      );
      assert.match(other.submit.error ?? '', /nonce/i, `${at}: why the reused nonce was rejected`);
    }

    // An account that holds nothing cannot send.
    const nobody = Wallet.random('nobody');
    const unfunded = await txs.build(
      nobody,
      { type: 'TRANSFER', to: bob.address, amount: 1n, nonce: 0 },
      via,
    );
    for (const n of names) {
      const at = `${n} at height ${await chain.height(n)}`;
      const r = await txs.sendBuilt(unfunded, n);
      assert.equal(
        r.submit.status,
        'rejected',
        `${at}: a transfer from an unfunded account was ${r.submit.status}`,
      );
      assert.match(
        r.submit.error ?? '',
        /insufficient balance/i,
        `${at}: why the unfunded transfer was rejected`,
      );
    }

    // Nothing of that reached the chain.
    await chain.waitBlocks(2);
    await expectBalances();
    for (const n of names) {
      const { height, value: r } = await chain.consistent(n, () => net.node(n).rpc.balance(nobody.address));
      assert.equal(r.balance, '0', `${n} at height ${height}: the unfunded account's balance`);
      assert.equal(r.nonce, 0, `${n} at height ${height}: the unfunded account's nonce`);
    }
  },
};

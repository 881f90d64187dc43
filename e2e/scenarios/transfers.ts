/**
 * 3 Transfers: a transfer is received, then confirmed on every node at one height with
 * confirmations growing (current height - block height + 1); balances and nonces exact to the wei,
 * fee included, on every node; the same nonce again is rejected; an unfunded sender is rejected
 * for insufficient balance.
 */
import assert from 'node:assert/strict';
import { COIN, feeOf, type TestnetBase, Wallet } from '@chain-devnet/devnet/testkit';
import { waitFor } from '@chain-devnet/kit/wait';
import type { Tx } from '@chain-devnet/node/chain';
import type { Scenario } from './scenario.js';

/** The transfer from alice to bob: how it was funded and signed, where it went, where it is. */
interface Transfer {
  readonly alice: Wallet;
  readonly bob: Wallet;
  readonly funded: bigint;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly tx: Tx;
  readonly hash: string;
  /** The node it was sent to. */
  readonly via: string;
  /** Its block's height. */
  readonly height: number;
}

export const transfers: Scenario<TestnetBase> = {
  id: 3,
  title: 'transfers: confirmed everywhere, exact balances and nonces, replays and unfunded senders rejected',
  async run(net) {
    await net.synced();
    const t = await receivedThenConfirmed(net);
    await confirmationsGrow(net, t);
    await blockHoldsItAsSigned(net, t);
    await balancesAndNoncesExact(net, t);
    await replaysRejected(net, t);
    const nobody = await unfundedSenderRejected(net, t);
    // Nothing of that reached the chain.
    await net.chain.waitBlocks(2);
    await balancesAndNoncesExact(net, t);
    for (const n of net.names()) {
      const { height, value: r } = await net.chain.consistent(n, () =>
        net.node(n).rpc.balance(nobody.address),
      );
      assert.equal(r.balance, '0', `${n} at height ${height}: the unfunded account's balance`);
      assert.equal(r.nonce, 0, `${n} at height ${height}: the unfunded account's nonce`);
    }
  },
};

/** A transfer from a fresh funded account is received, its receipt pending or confirmed; then confirmed everywhere. */
async function receivedThenConfirmed(net: TestnetBase): Promise<Transfer> {
  const { chain, txs } = net;
  const names = net.names();
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
  return { alice, bob, funded, amount, fee, tx, hash: sent.hash, via, height };
}

/** Confirmations grow, and are current height - block height + 1 at every read. */
async function confirmationsGrow(net: TestnetBase, t: Transfer): Promise<void> {
  const { chain } = net;
  const { hash, height } = t;
  for (const n of net.names()) {
    const seen = new Set<number>();
    await waitFor(`${n}: confirmations of ${hash} to grow`, net.within(6), async () => {
      const { height: h, value: r } = await chain.consistent(n, () => net.node(n).rpc.receipt(hash));
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
}

/** The block holds the transaction as it was signed, on every node. */
async function blockHoldsItAsSigned(net: TestnetBase, t: Transfer): Promise<void> {
  const { height } = t;
  for (const n of net.names()) {
    const b = await net.chain.block(n, height);
    const inBlock = b.txs.find((x) => x.tx_hash === t.hash)!;
    assert.equal(inBlock.amount, t.amount.toString(), `${n} at height ${height}: amount in the block`);
    assert.equal(inBlock.fee, t.fee.toString(), `${n} at height ${height}: fee in the block`);
    assert.equal(inBlock.from_address, t.alice.address, `${n} at height ${height}: from_address`);
    assert.equal(inBlock.to_address, t.bob.address, `${n} at height ${height}: to_address`);
  }
}

/** Balances and nonces, exact, on every node. */
async function balancesAndNoncesExact(net: TestnetBase, t: Transfer): Promise<void> {
  const { alice, bob, funded, amount, fee } = t;
  for (const n of net.names()) {
    const { height: h, value } = await net.chain.consistent(n, async () => ({
      a: await net.node(n).rpc.balance(alice.address),
      b: await net.node(n).rpc.balance(bob.address),
    }));
    assert.equal(BigInt(value.a.balance), funded - amount - fee, `${n} at height ${h}: alice's balance`);
    assert.equal(value.a.nonce, 1, `${n} at height ${h}: alice's nonce`);
    assert.equal(BigInt(value.b.balance), amount, `${n} at height ${h}: bob's balance`);
    assert.equal(value.b.nonce, 0, `${n} at height ${h}: bob's nonce`);
  }
}

/** The same transaction again, and another one with the used nonce: rejected by every node. */
async function replaysRejected(net: TestnetBase, t: Transfer): Promise<void> {
  const { chain, txs } = net;
  const reused = await txs.build(
    t.alice,
    { type: 'TRANSFER', to: t.bob.address, amount: 1n, nonce: 0 },
    t.via,
  );
  for (const n of net.names()) {
    const at = `${n} at height ${await chain.height(n)}`;
    const again = await txs.sendBuilt(t.tx, n);
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
}

/** An account that holds nothing cannot send: rejected by every node. Returns that account. */
async function unfundedSenderRejected(net: TestnetBase, t: Transfer): Promise<Wallet> {
  const { chain, txs } = net;
  const nobody = Wallet.random('nobody');
  const unfunded = await txs.build(
    nobody,
    { type: 'TRANSFER', to: t.bob.address, amount: 1n, nonce: 0 },
    t.via,
  );
  for (const n of net.names()) {
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
  return nobody;
}

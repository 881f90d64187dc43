/**
 * The RPC client over HTTP: one typed method per endpoint reaches it (a wrong path would be a
 * 404) and reads the answer in its shape (rpc/answers.ts), big integers exactly; an error
 * answer becomes an RpcError with the status and the detail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { coins, txToJson } from '../../../src/chain/index.js';
import { RpcClient, RpcError } from '../../../src/client/rpcClient.js';
import { key, tx } from '../../fixtures.js';
import { type Harness, makeHarness } from '../../support/harness.js';

describe('RpcClient', () => {
  let h: Harness;
  let client: RpcClient;
  before(async () => {
    h = await makeHarness({
      accounts: { alice: coins(1000), carol: 10n ** 40n },
      params: { epoch_length: 4 },
    });
    client = new RpcClient(await h.listen(), 5_000);
  });
  after(async () => {
    await h.close();
  });

  it('reaches every endpoint and reads each answer in its shape', async () => {
    const big = 10n ** 19n + 7n;
    const carol = key('carol').account;
    const validator = key('val-0').validator;
    const sent = await client.sendTx(
      tx(h.service.state, 'carol', 'DELEGATE', { to: validator, amount: big }),
    );
    assert.equal(sent.status, 'received', sent.error);
    assert.equal((await client.receipt(sent.tx_hash)).status, 'pending');
    while (h.service.state.height < 4) await h.produce();

    const status = await client.status();
    assert.deepEqual(status, { ...status, height: 4, network: 'devnet', mempool_size: 0, epoch: 1 });
    const block = await client.block(4);
    assert.equal(block.header.height, 4);
    assert.equal(block.header.prev_hash.length, 64);
    assert.equal((await client.block(1)).txs[0]?.tx_hash, sent.tx_hash);
    const commit = await client.commit(4);
    assert.deepEqual(
      { ...commit, signatures: commit.signatures.map((s) => s.validator) },
      { height: 4, round: 0, block_hash: status.last_hash, signatures: [validator] },
    );
    const receipt = await client.receipt(sent.tx_hash);
    assert.deepEqual(receipt, {
      ...receipt,
      status: 'confirmed',
      block_height: 1,
      error: null,
      confirmations: 4,
    });
    assert.equal((await client.balance(carol)).nonce, 1);
    const { validators } = await client.validators();
    assert.deepEqual(
      validators.map((v) => [v.name, v.status, v.proposer_index]),
      [['val-0', 'ACTIVE', 0]],
    );
    const delegations = await client.delegations(carol);
    assert.equal(delegations.total_delegated, big, 'a JSON integer beyond 2^53, exactly');
    assert.deepEqual(
      delegations.delegations.map((d) => [d.validator, d.amount]),
      [[validator, big]],
    );
    const rewards = await client.rewards(carol);
    assert.ok(BigInt(rewards.total_rewards) > 0n);
    assert.deepEqual((await client.unbonding(carol)).unbonding_entries, []);
    const supply = await client.supply();
    assert.equal(supply.height, 4);
    assert.equal(supply.delegations, big.toString());
    const { snapshots } = await client.snapshots();
    assert.deepEqual(
      snapshots.map((s) => s.height),
      [4],
    );
    const snapshot = await client.snapshot(4);
    assert.equal(snapshot.hash, snapshots[0]!.hash);
    assert.equal(snapshot.validator_count, 1);
    assert.match(await client.metrics(), /^chain_block_height 4$/m);
  });

  it('an error answer is an RpcError with the status and the detail', async () => {
    await assert.rejects(client.block(999), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.equal(e.status, 404);
      assert.equal(e.detail, 'Block not found');
      return true;
    });
    await assert.rejects(client.snapshot(3), /HTTP 404 Snapshot not found/);
    await assert.rejects(
      client.sendTx({ ...txToJson(tx(h.service.state, 'alice', 'TRANSFER', {})), fee: 'x' }),
      /HTTP 400 Invalid transaction format/,
    );
  });
});

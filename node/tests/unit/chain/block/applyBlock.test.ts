/**
 * Blocks through applyBlock (block/applyBlock.ts): linking, signing, the proposer schedule,
 * determinism, refusals, and a sequence figured exactly.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyBlock,
  type Block,
  BlockError,
  blockHash,
  coins,
  signHeader,
  stateRoot,
  ZERO_HASH,
} from '../../../../src/chain/index.js';
import { key, TestChain, tx } from '../../../fixtures.js';
import { acct, chainOf } from '../../../world.js';
import { FEE, REWARD } from '../execute/ruleTable.js';

const FOUR = ['val-0', 'val-1', 'val-2', 'val-3'];

function expectBlockError(fn: () => unknown, code: string) {
  assert.throws(fn, (e: unknown) => e instanceof BlockError && e.code === code);
}

describe('blocks', () => {
  it('links each block to its parent and signs it by the scheduled proposer', () => {
    const chain = new TestChain({ validators: FOUR });
    chain.produceUntil(8);
    let prev = chain.blocks[0]!.header.prevHash;
    for (const [i, b] of chain.blocks.entries()) {
      assert.equal(b.header.height, i + 1);
      assert.equal(b.header.prevHash, prev);
      prev = blockHash(b.header);
    }
    assert.equal(chain.state.lastBlockHash, prev);
  });

  it('is deterministic: the same blocks from the same genesis give the same state root', () => {
    const a = new TestChain({ validators: FOUR, accounts: { alice: coins(100) } });
    a.produce([tx(a.state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 5n })]);
    a.produceUntil(5);
    const b = new TestChain({ validators: FOUR, accounts: { alice: coins(100) } });
    for (const block of a.blocks) b.state = applyBlock(b.state, block).state;
    assert.equal(stateRoot(b.state), stateRoot(a.state));
    assert.equal(b.state.lastBlockHash, a.state.lastBlockHash);
  });

  it('refuses a block from the wrong proposer, with a bad signature, or with a wrong root', () => {
    const chain = new TestChain({ validators: FOUR });
    const genesis = chain.state;
    chain.produce();
    const good = chain.blocks[0]!;
    const { signature: _s, ...unsigned } = good.header;
    const wrongKey = signHeader(unsigned, key('mallory').privateKey);
    expectBlockError(() => applyBlock(genesis, { ...good, header: wrongKey }), 'BAD_PROPOSER_SIGNATURE');
    const otherRoot: Block = { ...good, header: { ...good.header, stateRoot: ZERO_HASH } };
    expectBlockError(() => applyBlock(genesis, otherRoot), 'BAD_PROPOSER_SIGNATURE');
    const proposerKey = FOUR.map(key).find((k) => k.validator === good.header.proposerAddress)!;
    const resigned = signHeader({ ...unsigned, stateRoot: ZERO_HASH }, proposerKey.privateKey);
    expectBlockError(() => applyBlock(genesis, { ...good, header: resigned }), 'BAD_STATE_ROOT');
    expectBlockError(() => applyBlock(chain.state, good), 'WRONG_HEIGHT');
  });

  it('refuses a header that breaks each other check with that check’s code, signed by the proposer', () => {
    const chain = new TestChain({ validators: FOUR });
    const genesis = chain.state;
    chain.produce();
    const good = chain.blocks[0]!;
    const { signature: _s, ...unsigned } = good.header;
    const proposerKey = FOUR.map(key).find((k) => k.validator === good.header.proposerAddress)!;
    const signedWith = (change: Partial<typeof unsigned>): Block => ({
      ...good,
      header: signHeader({ ...unsigned, ...change }, proposerKey.privateKey),
    });
    const malformed: Block = { ...good, header: { ...good.header, txRoot: 'not hex' } };
    expectBlockError(() => applyBlock(genesis, malformed), 'MALFORMED');
    expectBlockError(() => applyBlock(genesis, signedWith({ chainId: 'chain-other-1' })), 'WRONG_CHAIN');
    expectBlockError(() => applyBlock(genesis, signedWith({ prevHash: 'ab'.repeat(32) })), 'WRONG_PREV_HASH');
    expectBlockError(
      () => applyBlock(genesis, signedWith({ timestamp: genesis.lastTimestamp - 1 })),
      'TIMESTAMP_BEFORE_PARENT',
    );
    expectBlockError(() => applyBlock(genesis, signedWith({ round: 1 })), 'WRONG_PROPOSER');
    expectBlockError(() => applyBlock(genesis, signedWith({ txRoot: ZERO_HASH })), 'BAD_TX_ROOT');
    expectBlockError(() => applyBlock(genesis, signedWith({ gasLimit: unsigned.gasLimit + 1 })), 'BAD_GAS');
    expectBlockError(() => applyBlock(genesis, signedWith({ computeRoot: ZERO_HASH })), 'BAD_COMPUTE_ROOT');
    assert.doesNotThrow(() => applyBlock(genesis, signedWith({})), 'the same header signed again is valid');
  });
});

describe('a sequence through blocks', () => {
  it('STAKE registers, a later STAKE tops up, UPDATE_VALIDATOR renames: each block figured exactly', () => {
    const chain = chainOf({ accounts: { carol: coins(1000) } });
    chain.produce([tx(chain.state, 'carol', 'STAKE', { amount: coins(150), payload: { name: 'c1' } })]);
    assert.equal(chain.balance('carol'), coins(850) - FEE.STAKE);
    chain.produce([tx(chain.state, 'carol', 'STAKE', { amount: coins(50) })]);
    assert.equal(chain.balance('carol'), coins(800) - 2n * FEE.STAKE);
    chain.produce([tx(chain.state, 'carol', 'UPDATE_VALIDATOR', { payload: { name: 'c2' } })]);
    assert.equal(chain.balance('carol'), coins(800) - 2n * FEE.STAKE - FEE.UPDATE_VALIDATOR);
    assert.equal(chain.state.accounts.get(acct('carol'))?.nonce, 3);
    const v = chain.validator('carol');
    assert.deepEqual(
      { stake: v?.stake, name: v?.name, registeredHeight: v?.registeredHeight, status: v?.status },
      { stake: coins(200), name: 'c2', registeredHeight: 1, status: 'INACTIVE' },
    );
    assert.equal(chain.balance('val-0'), 3n * REWARD + 2n * FEE.STAKE + FEE.UPDATE_VALIDATOR);
  });
});

/**
 * The invariants against fake nodes (fakeNodes.ts): they hold on a sound chain, and each one
 * broken on purpose is reported as that invariant's step, naming the node and the height.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { SupplyAnswer } from '@chain-devnet/node/client';
import {
  blockReward,
  checkInvariants,
  INVARIANTS,
  type InvariantReport,
  TestkitError,
} from '../../src/testkit/index.js';
import { type FakeNet, fakeNet, resigned } from './fakeNodes.js';

async function broken(f: FakeNet, byzantine?: string[]): Promise<TestkitError> {
  try {
    await checkInvariants(f.net, byzantine === undefined ? {} : { byzantine });
  } catch (e) {
    if (e instanceof TestkitError) return e;
    throw e;
  }
  assert.fail('the invariants held');
}

/** A /supply answer that adds up at `height` for the fake chain (no burn, no delegation). */
function soundSupply(f: FakeNet, height: number): SupplyAnswer {
  const genesis = f.net.genesis.state.totals.genesisSupply;
  let minted = 0n;
  for (let h = 1; h <= height; h++) minted += blockReward(h, f.net.params);
  const stakes = [...f.net.genesis.state.validators.values()].reduce((a, v) => a + v.stake, 0n);
  return {
    height,
    genesis_supply: genesis.toString(),
    total_minted: minted.toString(),
    total_burned: '0',
    balances: (genesis + minted - stakes).toString(),
    stakes: stakes.toString(),
    delegations: '0',
    unbonding: '0',
    treasury: '0',
  };
}

describe('testkit invariants', () => {
  let f: FakeNet | null = null;
  afterEach(async () => {
    await f?.close();
    f = null;
  });

  it('hold on a sound chain: headers, proposers, the confirmed transaction, supply, no evidence', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    for (const n of f.nodes) {
      n.supply = soundSupply(f, 12);
      n.evidence = [];
    }
    f.net.ledger.record(f.chain.tx.hash, f.chain.tx.height, 'the test');
    const r: InvariantReport = await checkInvariants(f.net);
    assert.equal(r.top, 12);
    assert.deepEqual(r.nodes, ['validator-0', 'validator-1', 'validator-2']);
    assert.deepEqual(r.lines, [
      `${INVARIANTS.headers}: heights 1..12 on validator-0, validator-1, validator-2`,
      `${INVARIANTS.proposers}: heights 1..12`,
      `${INVARIANTS.confirmed}: 1 transactions on every node`,
      `${INVARIANTS.supply}: on validator-0, validator-1, validator-2`,
      `${INVARIANTS.equivocation}: GET /evidence of validator-0, validator-1, validator-2`,
    ]);
  });

  it('say what they could not check: no /supply, no /evidence (block signatures instead), a silent node', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    f.node('validator-2').down = true;
    f.node('validator-1').height = 10;
    const r = await checkInvariants(f.net);
    assert.equal(r.top, 10);
    assert.deepEqual(r.silent, ['validator-2']);
    assert.equal(r.lines[3], `${INVARIANTS.supply}: not checked: no node serves GET /supply`);
    assert.equal(
      r.lines[4],
      `${INVARIANTS.equivocation}: block signatures of validator-0, validator-1 (no GET /evidence)`,
    );
  });

  it('a node that joined later is checked from its first block', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    f.node('validator-2').first = 5;
    const r = await checkInvariants(f.net);
    assert.equal(r.lines[0], `${INVARIANTS.headers}: heights 1..12 on validator-0, validator-1, validator-2`);
  });

  it('the same header: another header at one height is reported with the node and the height', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    const other = await fakeNet({ validators: 3, height: 12, wrongProposerAt: 5 });
    try {
      // validator-1 has another block 5 (and so another chain from there).
      f.node('validator-1').blocks = [...other.chain.blocks];
    } finally {
      await other.close();
    }
    const e = await broken(f);
    assert.equal(e.step, INVARIANTS.headers);
    assert.equal(e.node, 'validator-1');
    assert.equal(e.height, 5);
    assert.match(e.expected, /^the header validator-0 has at 5 \(hash [0-9a-f]{64}\)$/);
  });

  it("the same header: a node's own chain that does not link is reported where it breaks", async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    const v0 = f.node('validator-0');
    const b = v0.blocks[7]!;
    v0.blocks[7] = { ...b, header: { ...b.header, prev_hash: 'ab'.repeat(32) } };
    const e = await broken(f);
    assert.equal(e.step, INVARIANTS.headers);
    assert.equal(e.node, 'validator-0');
    assert.equal(e.height, 8);
    assert.match(e.expected, /^prev_hash [0-9a-f]{64} \(the hash of its own header at 7\)$/);
    assert.equal(e.found, `prev_hash ${'ab'.repeat(32)}`);
  });

  it('proposers: a block proposed out of turn (on every node) is reported with the height', async () => {
    f = await fakeNet({ validators: 3, height: 12, wrongProposerAt: 7 });
    const e = await broken(f);
    assert.equal(e.step, INVARIANTS.proposers);
    assert.equal(e.node, 'validator-0');
    assert.equal(e.height, 7);
    assert.match(e.expected, /^the proposer of round 0 the schedule names \(3 active: .*\): validator-\d$/);
    assert.match(e.found, /^proposer validator-\d$/);
  });

  it('no confirmed transaction lost: a receipt gone, a block without the transaction', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    const { hash, height } = f.chain.tx;
    f.net.ledger.record(hash, height, 'the load generator');
    f.node('validator-2').receipts.delete(hash);
    const gone = await broken(f);
    assert.equal(gone.step, INVARIANTS.confirmed);
    assert.equal(gone.node, 'validator-2');
    assert.equal(gone.height, height);
    assert.equal(
      gone.expected,
      `the receipt of ${hash} confirmed at ${height} (seen so by the load generator)`,
    );
    assert.equal(gone.found, 'no receipt (404)');
    f.node('validator-2').receipts.set(hash, f.node('validator-0').receipts.get(hash)!);
    f.net.ledger.record('cd'.repeat(32), 6, 'a wallet');
    const lost = await broken(f);
    assert.equal(lost.node, 'validator-0');
    assert.equal(lost.height, 6);
    assert.equal(
      lost.expected,
      `transaction ${'cd'.repeat(32)} in block 6 (seen confirmed there by a wallet)`,
    );
  });

  it('supply conserved: parts that do not add up, minted or burned other than the history', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    for (const n of f.nodes) n.supply = soundSupply(f, 12);
    const v1 = f.node('validator-1');
    const sound = v1.supply!;
    v1.supply = { ...sound, balances: (BigInt(sound.balances) - 1n).toString() };
    const parts = await broken(f);
    assert.equal(parts.step, INVARIANTS.supply);
    assert.equal(parts.node, 'validator-1');
    assert.equal(parts.height, 12);
    assert.match(parts.expected, /^genesis_supply \+ total_minted - total_burned \(\d+ wei\) = balances/);
    // Conserved, but minted more than the block rewards.
    const extra = 10n ** 18n;
    v1.supply = {
      ...sound,
      total_minted: (BigInt(sound.total_minted) + extra).toString(),
      balances: (BigInt(sound.balances) + extra).toString(),
    };
    const minted = await broken(f);
    assert.equal(minted.node, 'validator-1');
    assert.equal(minted.expected, `total_minted ${sound.total_minted} (the block rewards of 1..12)`);
    // Conserved, but burned what the chain's history never burned.
    v1.supply = {
      ...sound,
      total_burned: extra.toString(),
      balances: (BigInt(sound.balances) - extra).toString(),
    };
    const burned = await broken(f);
    assert.equal(burned.node, 'validator-1');
    assert.match(burned.expected, /^total_burned 0 \(slashes/);
  });

  it('no equivocation: evidence served is reported (unless the run declared the validator Byzantine)', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    const liar = f.chain.network.nodes[1]!.key.validator_address;
    for (const n of f.nodes) n.evidence = [];
    f.node('validator-2').evidence = [{ validator: liar, kind: 'prevote', height: 9, round: 0 }];
    const e = await broken(f);
    assert.equal(e.step, INVARIANTS.equivocation);
    assert.equal(e.node, 'validator-2');
    assert.equal(e.height, 9);
    assert.equal(e.found, 'validator-1 signed two prevotes at height 9, round 0 (1 pieces of evidence)');
    await checkInvariants(f.net, { byzantine: ['validator-1'] });
  });

  it('no equivocation without /evidence: a block not signed by its proposer is reported', async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    const other = f.chain.network.nodes.find((n) => n.key.pub_key !== f!.chain.blocks[5]!.header.pub_key)!;
    for (const n of f.nodes) n.blocks[5] = resigned(n.blocks[5]!, other);
    const e = await broken(f);
    assert.equal(e.step, INVARIANTS.equivocation);
    assert.equal(e.node, 'validator-0');
    assert.equal(e.height, 6);
    assert.match(e.found, /^signature [0-9a-f]{130} does not verify$/);
  });
});

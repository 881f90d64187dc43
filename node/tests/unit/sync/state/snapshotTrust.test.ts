/**
 * What a joiner (and a fork given the source's genesis) trusts of a snapshot
 * (sync/state/snapshotTrust.ts; docs/CONSENSUS.md, "State sync: what a joiner trusts"), on chains of
 * four validators built by the chain rules: a snapshot of this chain is taken; the genuine,
 * validly signed snapshot of a sister chain (the same keys and chain id, another genesis time, as
 * two devnets of one seed) is refused from protocol 1.2.0 on, by the genesis hash its state names,
 * and so is a sister's at 1.0.0 offered to a chain born at 1.2.0; below 1.2.0 a sister's passes
 * (nothing committed tells them apart: the documented limit). Blocks h and h+1 are checked before
 * any state exists: a commit of block h+1 with too few genesis signers fails there.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockHash, type Commit, MIGRATIONS, signVote } from '../../../../src/chain/index.js';
import {
  anchorProblem,
  type SnapshotAnchor,
  snapshotTrustProblem,
  type TrustedGenesis,
} from '../../../../src/sync/state/snapshotTrust.js';
import { GENESIS_TIME, type GenesisOptions, genesisOf, key, TestChain } from '../../../fixtures.js';

const VALIDATORS = ['val-0', 'val-1', 'val-2', 'val-3'];
const H = 6;
const SISTER_TIME = GENESIS_TIME - 3600;

/** Block `height` of `c` precommitted by `signers` (labels), as a commit. */
function commitOf(c: TestChain, height: number, signers: readonly string[]): Commit {
  const block = c.blocks[height - 1]!;
  const hash = blockHash(block.header);
  const votes = signers.map((label) =>
    signVote(
      c.state.params.chainId,
      { kind: 'precommit', height, round: 0, blockHash: hash, validator: key(label).validator },
      key(label).privateKey,
    ),
  );
  return {
    height,
    round: 0,
    blockHash: hash,
    signatures: votes.map((v) => ({ validator: v.validator, signature: v.signature })),
  };
}

/** A chain of the four validators run past H; its genesis; what a peer serves for its snapshot at H. */
function chain(o: GenesisOptions): { genesis: TrustedGenesis; anchor: SnapshotAnchor } {
  const options = { validators: VALIDATORS, ...o };
  const genesis = genesisOf(options);
  const c = new TestChain(genesis.state, MIGRATIONS, VALIDATORS);
  const states = [];
  for (let h = 1; h <= H + 1; h++) {
    c.produce();
    states.push(c.state);
  }
  return {
    genesis,
    anchor: {
      state: states[H - 1]!,
      block: c.blocks[H - 1]!,
      commit: commitOf(c, H, VALIDATORS),
      next: c.blocks[H]!,
      nextCommit: commitOf(c, H + 1, VALIDATORS),
    },
  };
}

describe('snapshot trust: the genesis a snapshot is of', () => {
  const ours = chain({ protocolVersion: '1.2.0' });
  const sister = chain({ protocolVersion: '1.2.0', genesisTime: SISTER_TIME });

  it("this chain's snapshot is proven by its genesis, and its state names that genesis", () => {
    assert.equal(snapshotTrustProblem(ours.genesis, ours.anchor), null);
    assert.equal(ours.anchor.state.genesisHash, ours.genesis.hash);
  });

  it("a sister chain's genuine snapshot (same keys and chain id, another genesis time) is refused by the genesis hash it names", () => {
    assert.notEqual(sister.genesis.hash, ours.genesis.hash);
    // Its blocks are validly signed by the same keys: nothing before the state tells them apart.
    assert.equal(anchorProblem(ours.genesis, H, sister.anchor), null);
    assert.equal(
      snapshotTrustProblem(ours.genesis, sister.anchor),
      `the state at ${H} names genesis ${sister.genesis.hash}, not this chain's ${ours.genesis.hash}: a chain of another genesis (a sister devnet of the same seed and keys?)`,
    );
  });

  it('a sister at 1.0.0 (its state names no genesis) is refused by a chain whose genesis is at 1.2.0', () => {
    const old = chain({ protocolVersion: '1.0.0', genesisTime: SISTER_TIME });
    assert.match(
      snapshotTrustProblem(ours.genesis, old.anchor) ?? '',
      /^the state at 6 names no genesis, but this chain's genesis puts it at protocol 1\.2\.0 there/,
    );
    // Likewise by a chain at 1.0.0 whose genesis plans 1.2.0 before the height.
    const planned = chain({ upgrades: [{ target_version: '1.2.0', upgrade_height: 3 }] });
    assert.match(snapshotTrustProblem(planned.genesis, old.anchor) ?? '', /names no genesis, but/);
  });

  it('below 1.2.0 a sister’s snapshot passes: nothing committed tells the two apart (the documented limit)', () => {
    const a = chain({ protocolVersion: '1.0.0' });
    const b = chain({ protocolVersion: '1.0.0', genesisTime: SISTER_TIME });
    assert.notEqual(a.genesis.hash, b.genesis.hash);
    assert.equal(snapshotTrustProblem(a.genesis, b.anchor), null);
  });

  it('a fork given no genesis takes the state on its own validators’ word, whatever genesis it names', () => {
    assert.equal(snapshotTrustProblem(null, sister.anchor), null);
  });

  it('blocks h and h+1 are checked before any state: too few genesis signers of block h+1, a wrong link', () => {
    const fewSigners = {
      ...ours.anchor,
      nextCommit: { ...ours.anchor.nextCommit, signatures: ours.anchor.nextCommit.signatures.slice(0, 1) },
    };
    assert.equal(
      anchorProblem(ours.genesis, H, fewSigners),
      `only 1 of 4 genesis validators signed block ${H + 1} (more than 1/3 needed)`,
    );
    const strangers = genesisOf({ validators: ['someone-else'], protocolVersion: '1.2.0' });
    assert.match(
      anchorProblem(strangers, H, ours.anchor) ?? '',
      /only 0 of 1 genesis validators signed block 7/,
    );
    const unlinked = { ...ours.anchor, next: sister.anchor.next, nextCommit: sister.anchor.nextCommit };
    assert.equal(anchorProblem(ours.genesis, H, unlinked), `block ${H + 1} does not follow block ${H}`);
  });
});

/**
 * Equivocation evidence: the detector (what is and is not equivocation), the evidence's own
 * check (what a third party verifies), and its store in level (each pair once, the newest kept,
 * across a restart).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Proposal } from '../../../src/chain/index.js';
import {
  type Equivocation,
  equivocationId,
  isProvenEquivocation,
  proposalBytes,
  signProposal,
  signVote,
  type Vote,
  voteBytes,
  ZERO_HASH,
} from '../../../src/chain/index.js';
import { bytesToHex } from '../../../src/crypto/hex.js';
import { EquivocationDetector } from '../../../src/evidence/equivocationDetector.js';
import { ChainStore } from '../../../src/store/chainStore.js';
import { EvidenceStore } from '../../../src/store/evidenceStore.js';
import { key } from '../../fixtures.js';

const CHAIN = 'chain-devnet-1';
const liar = key('liar');
const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);

const vote = (v: Omit<Vote, 'signature' | 'validator'>, k = liar) =>
  signVote(CHAIN, { ...v, validator: k.validator }, k.privateKey);

function proposal(round: number, polRound: number, blockHash: string): Proposal {
  const base = { height: 3, round, polRound, blockHash };
  // The detector looks at the signed fields only; the block itself is not needed here.
  const block = {} as Proposal['block'];
  return { ...base, block, proposer: liar.validator, signature: signProposal(CHAIN, base, liar.privateKey) };
}

describe('equivocation detector', () => {
  it('a second vote for one (kind, height, round) with another block hash is evidence, once per pair, in sign-bytes order', () => {
    const d = new EquivocationDetector();
    const nil = vote({ kind: 'prevote', height: 3, round: 1, blockHash: null });
    const forB = vote({ kind: 'prevote', height: 3, round: 1, blockHash: B });
    const forA = vote({ kind: 'prevote', height: 3, round: 1, blockHash: A });
    assert.equal(d.observeVote(CHAIN, forB, liar.pubKey, 1), null);
    const e = d.observeVote(CHAIN, nil, liar.pubKey, 2);
    assert.ok(e !== null);
    assert.deepEqual(
      { kind: e.kind, height: e.height, round: e.round, validator: e.validator, detected_at: e.detected_at },
      { kind: 'prevote', height: 3, round: 1, validator: liar.validator, detected_at: 2 },
    );
    assert.deepEqual([e.first.block_hash, e.second.block_hash], [null, B], 'nil (zero bytes) sorts first');
    assert.equal(d.observeVote(CHAIN, nil, liar.pubKey, 3), null, 'a copy of either reports nothing more');
    assert.equal(d.observeVote(CHAIN, forB, liar.pubKey, 3), null);
    const third = d.observeVote(CHAIN, forA, liar.pubKey, 4);
    assert.deepEqual(
      [third?.first.block_hash, third?.second.block_hash],
      [A, B],
      'a third version: a new pair',
    );
  });

  it('what is not equivocation: the same vote again (another signature over the same bytes too), other steps, rounds or validators', () => {
    const d = new EquivocationDetector();
    const base = { kind: 'prevote' as const, height: 3, round: 0, blockHash: A };
    assert.equal(d.observeVote(CHAIN, vote(base), liar.pubKey, 0), null);
    assert.equal(d.observeVote(CHAIN, vote(base), liar.pubKey, 0), null);
    const resigned = { ...vote(base), signature: `${vote(base).signature.slice(0, 128)}00` };
    assert.equal(d.observeVote(CHAIN, resigned, liar.pubKey, 0), null, 'same bytes: not a conflict');
    for (const other of [
      { ...base, kind: 'precommit' as const, blockHash: null },
      { ...base, round: 1, blockHash: null },
      { ...base, height: 4, blockHash: null },
    ])
      assert.equal(d.observeVote(CHAIN, vote(other), liar.pubKey, 0), null, JSON.stringify(other));
    const honest = key('honest');
    assert.equal(d.observeVote(CHAIN, vote({ ...base, blockHash: null }, honest), honest.pubKey, 0), null);
  });

  it('two proposals for one round differ in block or in pol_round', () => {
    const d = new EquivocationDetector();
    assert.equal(d.observeProposal(CHAIN, proposal(2, -1, A), liar.pubKey, 0), null);
    assert.equal(d.observeProposal(CHAIN, proposal(2, -1, A), liar.pubKey, 0), null);
    const byBlock = d.observeProposal(CHAIN, proposal(2, -1, B), liar.pubKey, 0);
    assert.deepEqual(
      [byBlock?.kind, byBlock?.first.block_hash, byBlock?.second.block_hash],
      ['proposal', A, B],
    );
    const byPol = d.observeProposal(CHAIN, proposal(2, 0, A), liar.pubKey, 0);
    assert.deepEqual([byPol?.first.pol_round, byPol?.second.pol_round], [-1, 0]);
  });

  it('reports a conflict exactly when the two messages of one slot have other sign bytes, ordered by them', () => {
    // The detector compares the signed fields, not the sign bytes: this holds it to the bytes.
    type Message =
      | {
          readonly kind: 'prevote' | 'precommit';
          readonly blockHash: string | null;
          readonly signature: string;
        }
      | {
          readonly kind: 'proposal';
          readonly blockHash: string;
          readonly polRound: number;
          readonly signature: string;
        };
    const signature = fc.constantFrom('11'.repeat(65), '22'.repeat(65));
    // Few values, so that equal fields are common; the zero hash spelled out signs as nil does.
    const hash = fc.constantFrom(A, B, ZERO_HASH);
    const message = (kind: Message['kind']): fc.Arbitrary<Message> =>
      kind === 'proposal'
        ? fc.record({
            kind: fc.constant(kind),
            blockHash: hash,
            polRound: fc.integer({ min: -1, max: 2 }),
            signature,
          })
        : fc.record({ kind: fc.constant(kind), blockHash: fc.option(hash, { nil: null }), signature });
    const slotPair = fc
      .record({
        chainId: fc.stringMatching(/^[a-z0-9-]{1,20}$/),
        height: fc.nat({ max: 2 ** 40 }),
        round: fc.nat({ max: 0xffffffff }),
        kind: fc.constantFrom<Message['kind']>('proposal', 'prevote', 'precommit'),
      })
      .chain((slot) => fc.tuple(fc.constant(slot), message(slot.kind), message(slot.kind)));
    type Slot = { chainId: string; height: number; round: number };
    const signBytes = (s: Slot, m: Message) =>
      bytesToHex(
        m.kind === 'proposal'
          ? proposalBytes(s.chainId, s.height, s.round, m.polRound, m.blockHash)
          : voteBytes(s.chainId, m.kind, s.height, s.round, m.blockHash),
      );
    const observe = (d: EquivocationDetector, s: Slot, m: Message) =>
      m.kind === 'proposal'
        ? d.observeProposal(
            s.chainId,
            { ...s, ...m, proposer: liar.validator, block: {} as Proposal['block'] },
            liar.pubKey,
            0,
          )
        : d.observeVote(s.chainId, { ...s, ...m, validator: liar.validator }, liar.pubKey, 0);
    const slot = { chainId: CHAIN, height: 3, round: 1 };
    const sig = '11'.repeat(65);
    fc.assert(
      fc.property(slotPair, ([s, m1, m2]) => {
        const d = new EquivocationDetector();
        assert.equal(observe(d, s, m1), null);
        const e = observe(d, s, m2);
        const [b1, b2] = [signBytes(s, m1), signBytes(s, m2)];
        assert.equal(e !== null, b1 !== b2);
        if (e === null) return;
        const bytesOf = (v: Equivocation['first']): string =>
          s.kind === 'proposal'
            ? signBytes(s, {
                kind: 'proposal',
                blockHash: v.block_hash ?? '',
                polRound: v.pol_round ?? -1,
                signature: sig,
              })
            : signBytes(s, { kind: s.kind, blockHash: v.block_hash, signature: sig });
        assert.deepEqual([bytesOf(e.first), bytesOf(e.second)], [b1, b2].sort());
      }),
      {
        numRuns: 500,
        examples: [
          [
            [
              { ...slot, kind: 'prevote' },
              { kind: 'prevote', blockHash: null, signature: sig },
              { kind: 'prevote', blockHash: ZERO_HASH, signature: sig },
            ],
          ],
          [
            [
              { ...slot, kind: 'proposal' },
              { kind: 'proposal', blockHash: A, polRound: 0, signature: sig },
              { kind: 'proposal', blockHash: A, polRound: -1, signature: sig },
            ],
          ],
        ],
      },
    );
  });

  it('forgets the heights below the one it is told', () => {
    const d = new EquivocationDetector();
    d.observeVote(CHAIN, vote({ kind: 'precommit', height: 3, round: 0, blockHash: A }), liar.pubKey, 0);
    d.forgetBelow(4);
    assert.equal(
      d.observeVote(CHAIN, vote({ kind: 'precommit', height: 3, round: 0, blockHash: B }), liar.pubKey, 0),
      null,
    );
  });

  it('the evidence proves itself: both signatures check against pub_key, and a tampered copy does not', () => {
    const d = new EquivocationDetector();
    d.observeVote(CHAIN, vote({ kind: 'precommit', height: 3, round: 0, blockHash: A }), liar.pubKey, 0);
    const e = d.observeVote(
      CHAIN,
      vote({ kind: 'precommit', height: 3, round: 0, blockHash: B }),
      liar.pubKey,
      0,
    )!;
    assert.ok(isProvenEquivocation(e));
    assert.ok(!isProvenEquivocation({ ...e, pub_key: key('honest').pubKey }), 'another key');
    assert.ok(!isProvenEquivocation({ ...e, round: 1 }), 'another round');
    assert.ok(!isProvenEquivocation({ ...e, second: e.first }), 'the same message twice');
    assert.ok(!isProvenEquivocation({ ...e, chain_id: 'chain-testnet-1' }), 'another chain');
  });
});

describe('evidence store', () => {
  const evidence = (round: number): Equivocation => {
    const d = new EquivocationDetector();
    d.observeVote(CHAIN, vote({ kind: 'prevote', height: 3, round, blockHash: A }), liar.pubKey, 0);
    return d.observeVote(
      CHAIN,
      vote({ kind: 'prevote', height: 3, round, blockHash: B }),
      liar.pubKey,
      round,
    )!;
  };

  it('keeps each pair once and the newest `max` (newest first), across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evidence-'));
    try {
      let store = await ChainStore.open(dir);
      let kept = await EvidenceStore.open(store.evidence, 3);
      assert.equal(await kept.add(evidence(0)), true);
      assert.equal(await kept.add({ ...evidence(0), detected_at: 99 }), false, 'the same pair, seen again');
      for (const r of [1, 2, 3]) assert.equal(await kept.add(evidence(r)), true);
      assert.deepEqual(
        kept.list().map((e) => e.round),
        [3, 2, 1],
      );
      await store.close();
      store = await ChainStore.open(dir);
      kept = await EvidenceStore.open(store.evidence, 3);
      assert.deepEqual(
        kept.list().map((e) => e.round),
        [3, 2, 1],
        'the same after a restart',
      );
      assert.deepEqual(kept.list()[0], evidence(3));
      assert.equal(await kept.add(evidence(3)), false, 'still known after the restart');
      assert.equal(await kept.add(evidence(4)), true);
      assert.deepEqual(
        kept.list().map((e) => e.round),
        [4, 3, 2],
      );
      const keys: string[] = [];
      for await (const k of store.evidence.keys()) keys.push(k);
      assert.equal(keys.length, 3, 'the dropped ones are deleted from the store');
      assert.equal(new Set(kept.list().map(equivocationId)).size, 3);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

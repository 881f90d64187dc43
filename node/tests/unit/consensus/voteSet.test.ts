/**
 * VoteSet: a validator's first vote counts for "more than 2/3 voted"; for a block, every signed
 * vote counts (an equivocating validator's second one too), within a bound that junk cannot use
 * up to keep its real vote out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Vote } from '../../../src/chain/index.js';
import { VoteSet } from '../../../src/consensus/voteSet.js';

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
// The set does not check signatures (the driver did): plain values are enough here.
const vote = (validator: string, blockHash: string | null): Vote => ({
  kind: 'prevote',
  height: 1,
  round: 0,
  blockHash,
  validator,
  signature: `${validator}/${blockHash}`,
});

describe('VoteSet', () => {
  it('counts a validator once for "any", but for every block it signed a vote for', () => {
    const set = new VoteSet(4);
    set.add(vote('liar', null));
    assert.equal(set.add(vote('liar', null)), false, 'the same vote again adds nothing');
    assert.equal(set.add(vote('liar', A)), true, 'its second, conflicting vote is kept');
    set.add(vote('v1', A));
    assert.equal(set.hasQuorumAny(), false, 'two validators voted, not three');
    assert.equal(set.hasQuorumFor(A), false);
    set.add(vote('v2', A));
    assert.equal(set.size, 3);
    assert.equal(set.hasQuorumFor(A), true, 'liar, v1 and v2 signed a vote for A');
    assert.equal(set.hasQuorumFor(null), false);
    assert.equal(set.quorumBlock(), A);
    assert.equal(set.voteOf('liar')?.blockHash, null, 'its vote, for re-sending, is its first');
    assert.deepEqual(
      set.votesFor(A).map((v) => v.validator),
      ['liar', 'v1', 'v2'],
    );
  });

  it('keeps at most four votes per validator, and a vote for a block others voted for displaces its junk', () => {
    const set = new VoteSet(4);
    const junk = ['01', '02', '03', '04', '05'].map((b) => b.repeat(32));
    for (const j of junk.slice(0, 4)) assert.equal(set.add(vote('liar', j)), true);
    assert.equal(set.add(vote('liar', junk[4]!)), false, 'a fifth version nobody shares is dropped');
    set.add(vote('v1', B));
    set.add(vote('v2', B));
    assert.equal(set.add(vote('liar', B)), true, 'its vote for B, which others share, takes a junk place');
    assert.equal(set.hasQuorumFor(B), true);
    assert.equal(set.votesFor(junk[1]!).length, 0, 'a later junk vote was displaced');
    assert.equal(set.votesFor(junk[0]!).length, 1, 'never its first vote');
  });
});

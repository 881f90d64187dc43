/**
 * consensus/verdicts/vote.ts, proposal.ts and signed.ts: each condition of a vote's and a
 * proposal's gossip check with its verdict and reason, over four deterministic validators.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Proposal } from '../../../../src/chain/index.js';
import {
  activeValidators,
  blockHash,
  signProposal,
  signVote,
  type Vote,
} from '../../../../src/chain/index.js';
import { checkProposal, proposalMemo, readProposal } from '../../../../src/consensus/verdicts/proposal.js';
import type { SignedContext } from '../../../../src/consensus/verdicts/signed.js';
import { reject } from '../../../../src/consensus/verdicts/verdict.js';
import { checkVote, readVote, voteMemo } from '../../../../src/consensus/verdicts/vote.js';
import { encodeProposal, encodeVote } from '../../../../src/p2p/messages.js';
import { key, TestChain } from '../../../fixtures.js';

const LABELS = ['val-0', 'val-1', 'val-2', 'val-3'];
const chain = new TestChain({ validators: LABELS });
const chainId = chain.state.params.chainId;
const validators = activeValidators(chain.state);
const [a, b] = [key('val-0'), key('val-1')];
const outsider = key('not-a-validator');
const ctx = (known: readonly string[] = []): SignedContext => ({
  chainId,
  validators,
  known: (memo) => known.includes(memo),
});
const verdictOf = (v: ReturnType<typeof checkVote>) =>
  v.kind === 'accept' ? { kind: v.kind, signer: v.signer.address, fresh: v.fresh } : v;

describe('verdicts/vote', () => {
  const vote = signVote(
    chainId,
    { kind: 'prevote', height: 1, round: 0, blockHash: null, validator: a.validator },
    a.privateKey,
  );
  const cases: [string, Vote, SignedContext, ReturnType<typeof verdictOf>][] = [
    [
      'accept: signed by a validator of the height',
      vote,
      ctx(),
      { kind: 'accept', signer: a.validator, fresh: true },
    ],
    [
      'accept, not verified again: seen before',
      vote,
      ctx([voteMemo(vote)]),
      { kind: 'accept', signer: a.validator, fresh: false },
    ],
    [
      '[REJECT] unknown-validator: signed by no validator of the height',
      signVote(chainId, { ...vote, validator: outsider.validator }, outsider.privateKey),
      ctx(),
      reject('unknown-validator'),
    ],
    [
      '[REJECT] bad-signature: another validator named',
      { ...vote, validator: b.validator },
      ctx(),
      reject('bad-signature'),
    ],
    ['[REJECT] bad-signature: other contents', { ...vote, round: 1 }, ctx(), reject('bad-signature')],
    [
      '[REJECT] bad-signature: a seen signature on other contents is verified again',
      { ...vote, kind: 'precommit' },
      ctx([voteMemo(vote)]),
      reject('bad-signature'),
    ],
  ];
  for (const [name, v, c, expected] of cases)
    it(name, () => assert.deepEqual(verdictOf(checkVote(v, c)), expected));

  it('[REJECT] malformed: JSON that is no vote; bytes that are no JSON throw; a vote reads as one', () => {
    assert.deepEqual(readVote(new TextEncoder().encode('{"type":"vote"}')), reject('malformed'));
    // Bytes that are not JSON throw: the p2p layer rejects what a handler throws (not counted).
    assert.throws(() => readVote(new TextEncoder().encode('not json')), SyntaxError);
    assert.deepEqual(readVote(encodeVote(vote, 1)), { kind: 'vote', vote });
  });
});

describe('verdicts/proposal', () => {
  chain.produce();
  const block = chain.blocks[0]!;
  const base = { height: 1, round: 0, polRound: -1, blockHash: blockHash(block.header) };
  // Whether it is the round's proposer is the core's question, not gossip's.
  const proposer = a;
  const p: Proposal = {
    ...base,
    block,
    proposer: proposer.validator,
    signature: signProposal(chainId, base, proposer.privateKey),
  };
  const cases: [string, Proposal, SignedContext, ReturnType<typeof verdictOf>][] = [
    [
      'accept: signed by its proposer, a validator',
      p,
      ctx(),
      { kind: 'accept', signer: proposer.validator, fresh: true },
    ],
    [
      'accept, not verified again: seen before',
      p,
      ctx([proposalMemo(p)]),
      { kind: 'accept', signer: proposer.validator, fresh: false },
    ],
    [
      '[REJECT] unknown-validator: a proposer outside the set',
      { ...p, proposer: outsider.validator },
      ctx(),
      reject('unknown-validator'),
    ],
    [
      '[REJECT] bad-signature: another pol_round than signed',
      { ...p, polRound: 0 },
      ctx(),
      reject('bad-signature'),
    ],
    ['[REJECT] bad-signature: another round than signed', { ...p, round: 1 }, ctx(), reject('bad-signature')],
  ];
  for (const [name, m, c, expected] of cases)
    it(name, () => assert.deepEqual(verdictOf(checkProposal(m, c)), expected));

  it('[REJECT] malformed: bytes that are no proposal, or a block_hash that is not its block’s', () => {
    assert.deepEqual(readProposal(new TextEncoder().encode('[]')), reject('malformed'));
    const json = JSON.parse(new TextDecoder().decode(encodeProposal(p, 1))) as Record<string, unknown>;
    json.block_hash = 'ab'.repeat(32);
    assert.deepEqual(readProposal(new TextEncoder().encode(JSON.stringify(json))), reject('malformed'));
    assert.deepEqual(readProposal(encodeProposal(p, 1)), { kind: 'proposal', proposal: p });
  });
});

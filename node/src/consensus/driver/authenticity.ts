/**
 * Checks each consensus message's signer and signature once (verdicts/signed.ts), remembering
 * what it verified, and shows each first authentic message to the equivocation detector; the
 * evidence it finds is kept and counted by the chain service and logged here.
 */

import type { Logger } from '@chain-devnet/kit/log';
import type { Equivocation, Validator } from '../../chain/index.js';
import { EquivocationDetector } from '../../evidence/equivocationDetector.js';
import type { ChainService } from '../../service/chainService.js';
import type { Message } from '../message.js';
import { checkProposal, proposalMemo } from '../verdicts/proposal.js';
import type { SignedVerdict } from '../verdicts/signed.js';
import { checkVote, voteMemo } from '../verdicts/vote.js';

/** Verified memos kept before the set starts over (a bound; forgetting costs a verification). */
const MAX_VERIFIED = 50_000;

export class Authenticity {
  private readonly verified = new Set<string>();
  private readonly equivocations = new EquivocationDetector();

  constructor(
    private readonly service: ChainService,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** The verdict on `m` against `validators`, the active set of its height. */
  check(m: Message, validators: readonly Validator[]): SignedVerdict {
    const chainId = this.service.state.params.chainId;
    const ctx = { chainId, validators, known: (memo: string) => this.verified.has(memo) };
    const verdict = m.kind === 'vote' ? checkVote(m.vote, ctx) : checkProposal(m.proposal, ctx);
    if (verdict.kind !== 'accept' || !verdict.fresh) return verdict;
    this.verified.add(m.kind === 'vote' ? voteMemo(m.vote) : proposalMemo(m.proposal));
    if (this.verified.size > MAX_VERIFIED) this.verified.clear();
    const pubKey = verdict.signer.pubKey;
    this.onEquivocation(
      m.kind === 'vote'
        ? this.equivocations.observeVote(chainId, m.vote, pubKey, this.now())
        : this.equivocations.observeProposal(chainId, m.proposal, pubKey, this.now()),
    );
    return verdict;
  }

  forgetBelow(height: number): void {
    this.equivocations.forgetBelow(height);
  }

  /**
   * Evidence is kept (once per pair) and counted by the chain service; its message still counts
   * as authentic and is passed on, so that every peer sees both versions: a polka or a decision
   * may rest on either (VoteSet counts every signed vote for a block).
   */
  private onEquivocation(e: Equivocation | null): void {
    if (e === null) return;
    this.service
      .recordEquivocation(e)
      .then((fresh) => {
        if (fresh)
          this.logger.warn('equivocation: a validator signed two different messages for one step', {
            validator: e.validator,
            kind: e.kind,
            height: e.height,
            round: e.round,
            first: e.first.block_hash,
            second: e.second.block_hash,
          });
      })
      .catch((err: unknown) => this.logger.error('evidence not kept', { error: err as Error }));
  }
}

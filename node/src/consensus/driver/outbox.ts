/**
 * Sends this node's own proposals and votes as gossip. TEST ONLY: a Byzantine validator
 * (--byzantine equivocate) sends each of its messages in two versions, one to each half of the
 * topic's peers (equivocatorPort.ts; the test-only implementation and the split publish it reaches
 * through the network are in faults/, armed only by the composition root; docs/CONSENSUS.md
 * "A Byzantine validator").
 */
import type { Proposal, Vote } from '../../chain/index.js';
import { encodeProposal, encodeVote } from '../../p2p/messages.js';
import type { GossipPort } from '../../p2p/network.js';
import { TOPIC_BLOCKS, TOPIC_VOTES } from '../../p2p/protocol.js';
import type { DriverOptions } from './driverOptions.js';
import type { Equivocator } from './equivocatorPort.js';

export class Outbox {
  private readonly equivocator: Equivocator | null;
  /** This validator's address; null for an observer. */
  private readonly myAddress: string | null;

  constructor(
    private readonly network: GossipPort | null,
    opts: Pick<DriverOptions, 'equivocator' | 'signer'>,
    private readonly chainId: () => string,
    private readonly now: () => number,
  ) {
    this.equivocator = opts.equivocator ?? null;
    this.myAddress = opts.signer?.address ?? null;
  }

  proposal(p: Proposal): void {
    this.send(TOPIC_BLOCKS, p, p.proposer, encodeProposal, (e, id, m) => e.twinProposal(id, m));
  }

  vote(v: Vote): void {
    this.send(TOPIC_VOTES, v, v.validator, encodeVote, (e, id, m) => e.twinVote(id, m));
  }

  private send<T>(
    topic: string,
    m: T,
    signer: string,
    encode: (m: T, sentAt: number) => Uint8Array,
    twin: (e: Equivocator, chainId: string, m: T) => T,
  ): void {
    if (this.equivocator !== null && signer === this.myAddress)
      this.network?.publishSplit(topic, [
        encode(m, this.now()),
        encode(twin(this.equivocator, this.chainId(), m), this.now()),
      ]);
    else void this.network?.publish(topic, encode(m, this.now()));
  }
}

/**
 * The chain as this node last committed it: the state and the chain's per-type transaction
 * counts. One value shared by the service's parts; only opening and committing replace it.
 */
import type { ChainState } from '../chain/index.js';

export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
}

export class ChainHead {
  private current: ChainState | null = null;
  private counts: Readonly<Record<string, number>> = {};
  private genesis: string | null = null;

  get ready(): boolean {
    return this.current !== null;
  }

  /** The last committed state; throws NotReadyError until the chain is open. */
  get state(): ChainState {
    if (this.current === null) throw new NotReadyError('Node not initialized');
    return this.current;
  }

  /** Transactions per type in the chain so far (stored with each block). */
  get txCounts(): Readonly<Record<string, number>> {
    return this.counts;
  }

  /** The hash of the chain's block 0 (the rules need it: ApplyOptions.genesisHash); throws until open. */
  get genesisHash(): string {
    if (this.genesis === null) throw new NotReadyError('Node not initialized');
    return this.genesis;
  }

  /** The chain opened: its genesis hash, its last committed state. */
  open(genesisHash: string, state: ChainState, txCounts: Readonly<Record<string, number>>): void {
    this.genesis = genesisHash;
    this.set(state, txCounts);
  }

  set(state: ChainState, txCounts: Readonly<Record<string, number>>): void {
    this.current = state;
    this.counts = txCounts;
  }
}

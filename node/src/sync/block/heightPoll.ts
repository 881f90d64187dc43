/**
 * One round of status requests: asks each peer its height, all at once, and hands out the
 * candidates to sync from as their answers arrive, the highest untried one first. A caller gets a
 * candidate as soon as one answer is ahead, without waiting for the slowest peer (the slowest of
 * 20 on a loaded machine took the whole status timeout); when that candidate fails, it gets the
 * next one, waiting for later answers if none is left yet. So a peer that lies about its height
 * costs one attempt, and the node moves on to the others.
 */

export interface PeerHeight {
  readonly peer: string;
  readonly height: number;
}

export class HeightPoll {
  private readonly answers: PeerHeight[] = [];
  private readonly tried = new Set<string>();
  private pending: number;
  private wake: () => void = () => undefined;

  constructor(peers: readonly string[], ask: (peer: string) => Promise<number | null>) {
    this.pending = peers.length;
    for (const peer of peers)
      void ask(peer)
        .catch(() => null)
        .then((height) => {
          this.pending--;
          if (height !== null) this.answers.push({ peer, height });
          this.wake();
        });
  }

  /**
   * The highest untried answer above `above` (marked tried), waiting for more answers while there
   * is none and some are still due; null when every peer has answered and none is left.
   */
  async next(above: number): Promise<PeerHeight | null> {
    for (;;) {
      const best = this.answers
        .filter((a) => a.height > above && !this.tried.has(a.peer))
        .sort((a, b) => b.height - a.height)[0];
      if (best !== undefined) {
        this.tried.add(best.peer);
        return best;
      }
      if (this.pending === 0) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** The answers so far (for logs). */
  get answered(): readonly PeerHeight[] {
    return this.answers;
  }
}

/**
 * Messages for the height after the one being decided, kept until the node enters it (at most
 * MAX_KEPT). A message whose validators are not known yet has its gossip verdict wait too:
 * ignoring it now would stop it here, since the proposer of the next height enters it while most
 * nodes still wait out the block time, and the peers that reach the proposer only through such a
 * node would not see its proposal before their propose timeout.
 */
import { heightOf, type Message } from './message.js';
import { type GossipVerdict, ignore } from './verdicts/verdict.js';

const MAX_KEPT = 1000;

type Pending = GossipVerdict | Promise<GossipVerdict>;
type Kept = Message & { settle: (verdict: Pending) => void };

export class NextHeightBuffer {
  private kept: Kept[] = [];

  get full(): boolean {
    return this.kept.length >= MAX_KEPT;
  }

  /** Keeps a message whose verdict is already given (checked against the next height's set). */
  keep(m: Message): void {
    this.kept.push({ ...m, settle: () => undefined });
  }

  /** Keeps a message; its verdict comes when the node enters its height. */
  defer(m: Message): Pending {
    if (this.full) return ignore('next-height-full');
    return new Promise<GossipVerdict>((resolve) =>
      this.kept.push({ ...m, settle: (v) => void Promise.resolve(v).then(resolve) }),
    );
  }

  /** On entering `height`: its messages get `check`'s verdict, older ones are ignored. */
  release(height: number, check: (m: Message) => Pending): void {
    const kept = this.kept;
    this.kept = kept.filter((m) => heightOf(m) > height);
    for (const m of kept) {
      if (heightOf(m) > height) continue;
      m.settle(heightOf(m) < height ? ignore('stale-height') : check(m));
    }
  }

  /** On stopping: every waiting verdict is ignore. */
  drop(): void {
    for (const m of this.kept) m.settle(ignore('stopped'));
    this.kept = [];
  }
}

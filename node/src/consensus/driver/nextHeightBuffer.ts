/**
 * Messages for the height after the one being decided, kept until the node enters it (at most
 * MAX_KEPT). A message whose validators are not known yet has its gossip verdict wait too:
 * ignoring it now would stop it here, since the proposer of the next height enters it while most
 * nodes still wait out the block time, and the peers that reach the proposer only through such a
 * node would not see its proposal before their propose timeout.
 */
import { activeValidators, type ChainState, type Validator } from '../../chain/index.js';
import { heightOf, type Message } from '../message.js';
import type { SignedVerdict } from '../verdicts/signed.js';
import { type GossipVerdict, ignore } from '../verdicts/verdict.js';

const MAX_KEPT = 1000;

type Pending = GossipVerdict | Promise<GossipVerdict>;
type Kept = Message & { settle: (verdict: Pending) => void };

export class NextHeightBuffer {
  private kept: Kept[] = [];
  /** The active set of the next height, computed once the current height is committed. */
  private validators: { height: number; validators: Validator[] } | null = null;

  get full(): boolean {
    return this.kept.length >= MAX_KEPT;
  }

  /**
   * A message of the height after `state`'s last block, once that block is committed: its
   * validators are known, so it is checked now and, if authentic, kept and passed on at once.
   */
  checkNow(m: Message, state: ChainState, check: (m: Message, set: Validator[]) => SignedVerdict): Pending {
    if (this.full) return ignore('next-height-full');
    const height = heightOf(m);
    if (this.validators?.height !== height) this.validators = { height, validators: activeValidators(state) };
    const verdict = check(m, this.validators.validators);
    if (verdict.kind === 'accept') this.kept.push({ ...m, settle: () => undefined });
    return verdict;
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

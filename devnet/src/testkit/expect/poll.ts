/**
 * The one way an expectation waits: every named node is probed until its check holds, within a
 * bound; a check may also say "this will never hold" (a transaction failed, a count exceeded) and
 * end the wait at once. A failure names the first node whose check did not hold, its height, what
 * was expected (with the bound) and what its last probe found.
 */
import { now, pause } from '@chain-devnet/kit/wait';
import { describeWithin, type Within } from '../bounds.js';
import type { NetContext } from '../context.js';

export type Check<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly found: string;
      /** The height the check read at, when it knows it. */
      readonly height?: number | null;
      /** It cannot hold later either: fail now. */
      readonly final?: boolean;
    };

export const holds = <T>(value: T): Check<T> => ({ ok: true, value });

export interface PollOptions<T> {
  readonly nodes: readonly string[];
  readonly within: Within;
  /** What must hold on each node, for the failure's message ("height 10 or above"). */
  readonly expected: string;
  readonly check: (node: string) => Promise<Check<T>>;
  /** Between rounds of probes; default 100 ms. */
  readonly pollMs?: number;
}

/** Waits until `check` holds on every node; the value each node's check gave. */
export async function untilEveryNode<T>(net: NetContext, o: PollOptions<T>): Promise<Map<string, T>> {
  for (const n of o.nodes) net.rpc(n); // an unknown node fails before any wait
  const deadline = now() + net.bound(o.within);
  const done = new Map<string, T>();
  const last = new Map<string, Check<T>>();
  for (;;) {
    await Promise.all(
      o.nodes
        .filter((n) => !done.has(n))
        .map(async (n) => {
          let c: Check<T>;
          try {
            c = await o.check(n);
          } catch (e) {
            c = { ok: false, found: `no answer (${(e as Error).message})`, height: null };
          }
          last.set(n, c);
          if (c.ok) done.set(n, c.value);
        }),
    );
    if (done.size === o.nodes.length) return done;
    const final = o.nodes.find((n) => {
      const c = last.get(n);
      return c !== undefined && !c.ok && c.final === true;
    });
    if (final !== undefined || now() >= deadline) {
      const node = final ?? o.nodes.find((n) => !done.has(n))!;
      const c = last.get(node) as Extract<Check<T>, { ok: false }>;
      const height = c.height !== undefined ? c.height : await net.heightOf(node);
      throw net.failure({
        node,
        height,
        expected: `${o.expected} ${describeWithin(o.within)}`,
        found: c.found,
      });
    }
    await pause(Math.min(o.pollMs ?? 100, Math.max(0, deadline - now())));
  }
}

/**
 * Expectations on nodes' logs: lines containing or matching something, counted (at least,
 * exactly, at most), since marks or since the start; and "no line matching X", over the log so
 * far or watched for a window from now.
 */
import { now, pause } from '@chain-devnet/kit/wait';
import { describeWithin, type Within } from '../bounds.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import { type LineMatch, type LogMarks, lineMatcher } from '../logs.js';
import { holds, untilEveryNode } from './poll.js';

export interface Count {
  readonly atLeast?: number;
  readonly exactly?: number;
  readonly atMost?: number;
}

export interface LogExpectation extends LineMatch {
  /** Default: every node. */
  readonly nodes?: readonly string[];
  /** Exactly one of atLeast, exactly, atMost; default at least 1. */
  readonly count?: Count;
  /** Only lines after these marks (Testnet.logMarks()); default: the whole log. */
  readonly since?: LogMarks;
  /** Default: 5 blocks for at least and exactly; at most is checked once, now. */
  readonly within?: Within;
}

function checkCount(c: Count | undefined): { kind: 'atLeast' | 'exactly' | 'atMost'; n: number } {
  const given = Object.entries(c ?? { atLeast: 1 }).filter(([, v]) => v !== undefined);
  if (given.length !== 1 || !['atLeast', 'exactly', 'atMost'].includes(given[0]![0]))
    throw new TestkitUsageError(`count takes one of atLeast, exactly, atMost, got ${JSON.stringify(c)}`);
  const [kind, n] = given[0]! as ['atLeast' | 'exactly' | 'atMost', number];
  if (!Number.isInteger(n) || n < 0) throw new TestkitUsageError(`count.${kind} must be an integer >= 0`);
  return { kind, n };
}

const WORDS = { atLeast: 'at least', exactly: 'exactly', atMost: 'at most' } as const;

async function linesSince(net: NetContext, node: string, since: LogMarks | undefined): Promise<string[]> {
  const lines = await net.logLines(node);
  return lines.slice(since?.[node] ?? 0);
}

/** The matching lines of every named node, once the count holds. */
export async function expectLog(net: NetContext, e: LogExpectation): Promise<Map<string, string[]>> {
  const m = lineMatcher(e);
  const { kind, n } = checkCount(e.count);
  return untilEveryNode(net, {
    nodes: e.nodes ?? net.names(),
    within: e.within ?? (kind === 'atMost' ? { seconds: 0 } : { blocks: 5 }),
    expected: `${WORDS[kind]} ${n} log line${n === 1 ? '' : 's'} ${m.describe}${e.since ? ' since the mark' : ''}`,
    pollMs: 500,
    check: async (node) => {
      const hits = (await linesSince(net, node, e.since)).filter(m.test);
      const ok =
        kind === 'atLeast' ? hits.length >= n : kind === 'exactly' ? hits.length === n : hits.length <= n;
      if (ok) return holds(hits);
      const found = `${hits.length} such line${hits.length === 1 ? '' : 's'}${hits.length > 0 ? `, the last: ${hits.at(-1)!.slice(0, 300)}` : ''}`;
      // Lines are never taken back: too many is final.
      return { ok: false, found, final: kind !== 'atLeast' && hits.length > n };
    },
  });
}

export interface NoLogExpectation extends LineMatch {
  readonly nodes?: readonly string[];
  /** Lines after these marks; default: with `for`, from now; without, the whole log. */
  readonly since?: LogMarks;
  /** Watch for this window (from now); without it, the log so far is checked once. */
  readonly for?: Within;
}

/** No line matching on any named node: over the log so far, or watched for a window. */
export async function expectNoLog(net: NetContext, e: NoLogExpectation): Promise<void> {
  const m = lineMatcher(e);
  const nodes = e.nodes ?? net.names();
  const since: Record<string, number> = {};
  for (const node of nodes)
    since[node] = e.since?.[node] ?? (e.for === undefined ? 0 : (await net.logLines(node)).length);
  const deadline = e.for === undefined ? 0 : now() + net.bound(e.for);
  const window =
    e.for === undefined
      ? e.since
        ? 'since the mark'
        : 'in the log so far'
      : `for ${describeWithin(e.for).replace('within ', '')}`;
  for (;;) {
    for (const node of nodes) {
      const hit = (await linesSince(net, node, since)).find(m.test);
      if (hit !== undefined)
        throw await net.failureNow(
          node,
          `no log line ${m.describe} ${window}`,
          `the line ${hit.slice(0, 500)}`,
        );
    }
    if (now() >= deadline) return;
    await pause(Math.min(500, Math.max(0, deadline - now())));
  }
}

/**
 * Expectations on /metrics: a sample compared with a number, with another metric of the same
 * node, or with the same (or another) metric of another node, optionally plus an offset
 * ("validator-1's chain_block_height >= validator-0's - 2").
 */
import type { Within } from '../bounds.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import { holds, untilEveryNode } from './poll.js';

export const COMPARISONS = ['==', '!=', '>', '>=', '<', '<='] as const;
export type Comparison = (typeof COMPARISONS)[number];

export interface MetricRef {
  /** Default: the expectation's node. */
  readonly node?: string;
  /** Default: the expectation's metric. */
  readonly metric?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

export interface MetricExpectation {
  readonly node: string;
  readonly metric: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly op: Comparison;
  /** Compared with a number… */
  readonly value?: number;
  /** …or with another sample. */
  readonly other?: MetricRef;
  /** Added to the right-hand side; default 0. */
  readonly plus?: number;
  /** Default: checked once, now ({seconds: 0}). */
  readonly within?: Within;
}

export function compare(a: number, op: Comparison, b: number): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
  }
}

const sampleName = (node: string, metric: string, labels?: Readonly<Record<string, string>>) =>
  `${node}'s ${metric}${
    labels && Object.keys(labels).length > 0
      ? `{${Object.entries(labels)
          .map(([k, v]) => `${k}="${v}"`)
          .join(',')}}`
      : ''
  }`;

/** The left and right values when it holds. */
export async function expectMetric(
  net: NetContext,
  e: MetricExpectation,
): Promise<{ left: number; right: number }> {
  if (!(COMPARISONS as readonly string[]).includes(e.op))
    throw new TestkitUsageError(`op is one of ${COMPARISONS.join(' ')}, got ${e.op}`);
  if ((e.value === undefined) === (e.other === undefined))
    throw new TestkitUsageError('a metric expectation compares with either value or other');
  const other = e.other;
  const rightNode = other?.node ?? e.node;
  const rightMetric = other?.metric ?? e.metric;
  const rightLabels = other?.labels ?? (other?.metric === undefined ? e.labels : undefined);
  const plus = e.plus ?? 0;
  const rightName =
    e.value !== undefined
      ? String(e.value + plus)
      : `${sampleName(rightNode, rightMetric, rightLabels)}${plus === 0 ? '' : ` ${plus > 0 ? '+' : '-'} ${Math.abs(plus)}`}`;
  const result = await untilEveryNode(net, {
    nodes: [e.node],
    within: e.within ?? { seconds: 0 },
    expected: `${sampleName(e.node, e.metric, e.labels)} ${e.op} ${rightName}`,
    check: async (n) => {
      const left = (await net.chain.metrics(n)).get(e.metric, e.labels);
      let right: number | undefined;
      if (e.value !== undefined) right = e.value;
      else right = (await net.chain.metrics(rightNode)).get(rightMetric, rightLabels);
      if (left === undefined) return { ok: false, found: `${sampleName(n, e.metric, e.labels)} absent` };
      if (right === undefined) return { ok: false, found: `${rightName} absent (left ${left})` };
      return compare(left, e.op, right + plus)
        ? holds({ left, right: right + plus })
        : { ok: false, found: `${left} ${e.op} ${right + plus} is false` };
    },
  });
  return result.get(e.node)!;
}

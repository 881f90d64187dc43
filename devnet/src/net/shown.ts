/**
 * Network conditions written for people (the CLI, status, the panel's page): delays, loss and
 * rates as they are typed (`100ms`, `1%`, `1mbit`), a link's fields on one line, a node's on one
 * line. Pure and free of node:* and the node package, so the panel's page bundles it too.
 */

export function formatDelay(ms: number): string {
  return ms >= 1000 && ms % 100 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

export function formatLoss(loss: number): string {
  return `${Math.round(loss * 1e6) / 1e4}%`;
}

export function formatRate(bps: number): string {
  for (const [unit, n] of [
    ['gbit', 1e9],
    ['mbit', 1e6],
    ['kbit', 1e3],
  ] as const)
    if (bps >= n && bps % (n / 1000) === 0) return `${bps / n}${unit}`;
  return `${bps}bit`;
}

/** One link's fields for people: `100ms ±10ms, loss 1%, 1mbit`. */
export function fieldsText(l: {
  readonly latency_ms?: number;
  readonly jitter_ms?: number;
  readonly loss?: number;
  readonly rate_bps?: number;
}): string {
  const parts: string[] = [];
  if (l.latency_ms !== undefined)
    parts.push(`${formatDelay(l.latency_ms)}${l.jitter_ms ? ` ±${formatDelay(l.jitter_ms)}` : ''}`);
  else if (l.jitter_ms !== undefined) parts.push(`±${formatDelay(l.jitter_ms)}`);
  if (l.loss !== undefined) parts.push(`loss ${formatLoss(l.loss)}`);
  if (l.rate_bps !== undefined) parts.push(formatRate(l.rate_bps));
  return parts.join(', ') || 'as it is';
}

/** A node's conditions on one line for the panel (`out→*: 100ms, loss 1% · deaf to validator-1`), or `–`. */
export function netSummary(
  n: {
    readonly links: readonly ({ readonly peer: string; readonly direction: string } & Parameters<
      typeof fieldsText
    >[0])[];
    readonly deaf_to: readonly string[];
  } | null,
): string {
  if (n === null) return '–';
  const parts = n.links.map(
    (l) => `${l.direction}${l.direction === 'out' ? '→' : '←'}${l.peer}: ${fieldsText(l)}`,
  );
  if (n.deaf_to.length > 0) parts.push(`deaf to ${n.deaf_to.join(', ')}`);
  return parts.join(' · ') || '–';
}

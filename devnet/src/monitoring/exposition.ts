/**
 * Reading a node's /metrics (the Prometheus text exposition) for the few values the devnet shows
 * itself: `devnet status` (peers, round) and the panel's charts when no Prometheus runs.
 * Line format: `name{labels} value [timestamp]`; comments start with `#`.
 */

/** The value of the unlabelled sample `name`, or null when the text has none. */
export function sampleOf(text: string, name: string): number | null {
  const m = new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(text);
  return m === null ? null : Number(m[1]);
}

/** The sum of every sample of `name` over all its label sets (a counter by type), or null when none. */
export function sumOf(text: string, name: string): number | null {
  let sum: number | null = null;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^\\n]*\\})?\\s+(\\S+)`, 'gm')))
    sum = (sum ?? 0) + Number(m[1]);
  return sum;
}

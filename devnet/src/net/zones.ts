/**
 * Zones: each node in a zone, and between zones what ping shows, ROUND TRIP: `rtt_ms`, `jitter_ms`
 * and `loss` (the fraction of pings that do not come back). The manifest gives them (`zones` and
 * each validator's `zone`), `devnet zones FILE` replaces them at run time. A matrix entry is a
 * number (rtt_ms alone) or an object; `zones.A.B` and `zones.B.A` are one pair: give either, or
 * both equal (a round trip is the same both ways); `zones.A.A` is within A (default nothing).
 * Applied as half on each side's `out` (oneWay): one-way latency rtt/2, jitter jitter/2, and a
 * loss l each way such that (1 - l)² = 1 - loss. Pure: checks name the bad field.
 */

export interface ZoneEntry {
  readonly rtt_ms: number;
  readonly jitter_ms?: number;
  readonly loss?: number;
}

/** zone -> zone -> what ping shows between them. */
export type ZoneMatrix = Readonly<Record<string, Readonly<Record<string, number | ZoneEntry>>>>;

export interface ZoneSetup {
  readonly matrix: ZoneMatrix;
  /** node name -> its zone (a node not listed is in none: no zone conditions). */
  readonly nodes: Readonly<Record<string, string>>;
}

/** What one side applies on its `out` to a peer in the other zone. */
export interface OneWay {
  readonly latencyMs: number;
  readonly jitterMs: number;
  readonly loss: number;
}

const MAX_RTT_MS = 120_000;

function entryOf(v: number | ZoneEntry): ZoneEntry {
  return typeof v === 'number' ? { rtt_ms: v } : v;
}

function entryProblem(v: unknown, at: string): string | null {
  if (typeof v === 'number') v = { rtt_ms: v };
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return `${at} must be a round trip in ms or { rtt_ms, jitter_ms, loss }`;
  const e = v as Record<string, unknown>;
  const extra = Object.keys(e).find((k) => !['rtt_ms', 'jitter_ms', 'loss'].includes(k));
  if (extra !== undefined) return `${at}.${extra} is not a field (rtt_ms, jitter_ms, loss)`;
  const ms = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= MAX_RTT_MS;
  if (!ms(e.rtt_ms)) return `${at}.rtt_ms must be a round trip in ms from 0 to ${MAX_RTT_MS}`;
  if (e.jitter_ms !== undefined && !ms(e.jitter_ms))
    return `${at}.jitter_ms must be ms from 0 to ${MAX_RTT_MS}`;
  if (e.loss !== undefined && !(typeof e.loss === 'number' && e.loss >= 0 && e.loss < 1))
    return `${at}.loss must be a fraction from 0 to below 1`;
  return null;
}

const same = (a: ZoneEntry, b: ZoneEntry) =>
  a.rtt_ms === b.rtt_ms && (a.jitter_ms ?? 0) === (b.jitter_ms ?? 0) && (a.loss ?? 0) === (b.loss ?? 0);

/** The matrix's own problems: its entries, zones it names that it does not define, pairs that differ. */
function matrixProblems(matrix: unknown, at: string): string[] {
  if (typeof matrix !== 'object' || matrix === null || Array.isArray(matrix))
    return [`${at} must be an object: zone -> zone -> round trip`];
  const m = matrix as Record<string, unknown>;
  const zones = Object.keys(m);
  const problems: string[] = [];
  for (const a of zones) {
    const row = m[a];
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      problems.push(`${at}.${a} must be an object: zone -> round trip`);
      continue;
    }
    for (const [b, v] of Object.entries(row)) {
      const where = `${at}.${a}.${b}`;
      if (!zones.includes(b)) problems.push(`${where}: ${b} is not a zone of ${at} (${zones.join(', ')})`);
      const bad = entryProblem(v, where);
      if (bad !== null) problems.push(bad);
    }
  }
  if (problems.length > 0) return problems;
  const mm = m as ZoneMatrix;
  for (const a of zones)
    for (const b of zones) {
      const ab = mm[a]![b];
      const ba = mm[b]![a];
      if (a < b && ab !== undefined && ba !== undefined && !same(entryOf(ab), entryOf(ba)))
        problems.push(
          `${at}.${a}.${b} and ${at}.${b}.${a} differ: a round trip is the same both ways (give one of them)`,
        );
    }
  return problems;
}

/**
 * Every problem of a setup, each naming its field: the matrix's, a node's zone the matrix does not
 * define (`nodeField(name)` names where the node's zone was given), a pair of zones in use with no
 * round trip.
 */
export function zoneProblems(
  matrix: unknown,
  nodes: Readonly<Record<string, string>>,
  at: string,
  nodeField: (name: string) => string,
): string[] {
  const problems = matrixProblems(matrix, at);
  if (problems.length > 0) return problems;
  const m = matrix as ZoneMatrix;
  const zones = Object.keys(m);
  for (const [name, zone] of Object.entries(nodes))
    if (!zones.includes(zone))
      problems.push(
        `${nodeField(name)}: ${JSON.stringify(zone)} is not a zone of ${at} (${zones.join(', ') || 'none'})`,
      );
  const used = [...new Set(Object.values(nodes))].filter((z) => zones.includes(z)).sort();
  for (const [i, a] of used.entries())
    for (const b of used.slice(i + 1))
      if (m[a]![b] === undefined && m[b]![a] === undefined)
        problems.push(`${at}: no round trip between ${a} and ${b} (give ${at}.${a}.${b})`);
  return problems;
}

/** What `me` applies on its `out` to `peer`, by their zones; null: nothing (no zone, or no entry). */
export function zoneOut(setup: ZoneSetup | null, me: string, peer: string): OneWay | null {
  if (setup === null) return null;
  const a = setup.nodes[me];
  const b = setup.nodes[peer];
  if (a === undefined || b === undefined) return null;
  const v = setup.matrix[a]?.[b] ?? setup.matrix[b]?.[a];
  if (v === undefined) return null;
  const e = entryOf(v);
  return {
    latencyMs: e.rtt_ms / 2,
    jitterMs: (e.jitter_ms ?? 0) / 2,
    loss: 1 - Math.sqrt(1 - (e.loss ?? 0)),
  };
}

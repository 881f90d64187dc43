/**
 * TEST ONLY (fault injection): <home>/net_conditions.json, the conditions of a node's p2p links
 * (p2p/shaping/conditions.ts), read by the node (netConditions.ts, with --fault-injection) and
 * written by the devnet:
 *   {"version": 1,
 *    "links": [{"peer": "<peer id>" | "*", "direction": "out" | "in",
 *               "latency_ms": 100, "jitter_ms": 20, "loss": 0.01, "rate_bps": 1000000}, …],
 *    "deaf_to": ["<peer id>", …]}
 * Every field of a link but peer and direction may be left out (not set by it); one link a peer
 * and direction. Pure text in and out (docs/PROTOCOL.md, "Network conditions").
 */
import type { LinkRule, NetConditions } from '../p2p/shaping/conditions.js';

export const NET_CONDITIONS_FILE = 'net_conditions.json';
export const NET_CONDITIONS_VERSION = 1;

/** The bounds of each field (the longest delay, the slowest and fastest rate, the most rules). */
export const NET_LIMITS = {
  maxDelayMs: 60_000,
  minRateBps: 8_000,
  maxRateBps: 1e12,
  maxRules: 10_000,
} as const;

export type ParsedConditions = { ok: true; conditions: NetConditions } | { ok: false; error: string };

const LINK_KEYS = ['peer', 'direction', 'latency_ms', 'jitter_ms', 'loss', 'rate_bps'];
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isPeer = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 128;

class Bad extends Error {}

function num(
  link: Record<string, unknown>,
  key: string,
  at: string,
  ok: (n: number) => boolean,
  what: string,
) {
  const v = link[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) throw new Bad(`${at}.${key} must be ${what}`);
  return v;
}

function linkOf(v: unknown, at: string): LinkRule {
  if (!isObject(v)) throw new Bad(`${at} must be an object`);
  const extra = Object.keys(v).find((k) => !LINK_KEYS.includes(k));
  if (extra !== undefined) throw new Bad(`${at}.${extra} is not a field of a link (${LINK_KEYS.join(', ')})`);
  if (!isPeer(v.peer)) throw new Bad(`${at}.peer must be a peer id or "*"`);
  if (v.direction !== 'out' && v.direction !== 'in') throw new Bad(`${at}.direction must be "out" or "in"`);
  const delay = (n: number) => n >= 0 && n <= NET_LIMITS.maxDelayMs;
  const ms = `a number of ms from 0 to ${NET_LIMITS.maxDelayMs}`;
  const rule: { -readonly [K in keyof LinkRule]: LinkRule[K] } = { peer: v.peer, direction: v.direction };
  const latencyMs = num(v, 'latency_ms', at, delay, ms);
  const jitterMs = num(v, 'jitter_ms', at, delay, ms);
  const loss = num(v, 'loss', at, (n) => n >= 0 && n < 1, 'a fraction from 0 to below 1');
  const rateBps = num(
    v,
    'rate_bps',
    at,
    (n) => Number.isInteger(n) && n >= NET_LIMITS.minRateBps && n <= NET_LIMITS.maxRateBps,
    `a whole number of bits a second from ${NET_LIMITS.minRateBps} to ${NET_LIMITS.maxRateBps}`,
  );
  if (latencyMs !== undefined) rule.latencyMs = latencyMs;
  if (jitterMs !== undefined) rule.jitterMs = jitterMs;
  if (loss !== undefined) rule.loss = loss;
  if (rateBps !== undefined) rule.rateBps = rateBps;
  return rule;
}

function conditionsOf(j: unknown): NetConditions {
  if (!isObject(j)) throw new Bad('the file must be a JSON object');
  const extra = Object.keys(j).find((k) => !['version', 'links', 'deaf_to'].includes(k));
  if (extra !== undefined) throw new Bad(`${extra} is not a field (version, links, deaf_to)`);
  if (j.version !== NET_CONDITIONS_VERSION) throw new Bad(`version must be ${NET_CONDITIONS_VERSION}`);
  const links = j.links ?? [];
  const deaf = j.deaf_to ?? [];
  if (!Array.isArray(links) || links.length > NET_LIMITS.maxRules)
    throw new Bad(`links must be an array of at most ${NET_LIMITS.maxRules} links`);
  if (!Array.isArray(deaf) || deaf.length > NET_LIMITS.maxRules || !deaf.every((p) => isPeer(p) && p !== '*'))
    throw new Bad(`deaf_to must be an array of at most ${NET_LIMITS.maxRules} peer ids`);
  const rules = links.map((l, i) => linkOf(l, `links[${i}]`));
  const seen = new Set<string>();
  for (const [i, r] of rules.entries()) {
    const key = `${r.peer} ${r.direction}`;
    if (seen.has(key)) throw new Bad(`links[${i}] repeats peer ${r.peer}, direction ${r.direction}`);
    seen.add(key);
  }
  return { links: rules, deafTo: [...new Set(deaf as string[])] };
}

/** The file's conditions, or what is wrong with it (naming the field). */
export function parseNetConditions(text: string): ParsedConditions {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
  try {
    return { ok: true, conditions: conditionsOf(j) };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, error: e.message };
    throw e;
  }
}

/** The file's text for `c`: links in the order given, each field set written, deaf_to sorted. */
export function formatNetConditions(c: NetConditions): string {
  const links = c.links.map((r) => {
    const o: Record<string, unknown> = { peer: r.peer, direction: r.direction };
    if (r.latencyMs !== undefined) o.latency_ms = r.latencyMs;
    if (r.jitterMs !== undefined) o.jitter_ms = r.jitterMs;
    if (r.loss !== undefined) o.loss = r.loss;
    if (r.rateBps !== undefined) o.rate_bps = r.rateBps;
    return o;
  });
  const deaf = [...new Set(c.deafTo)].sort();
  return `${JSON.stringify({ version: NET_CONDITIONS_VERSION, links, deaf_to: deaf })}\n`;
}

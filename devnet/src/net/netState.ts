/**
 * The network conditions a devnet keeps (<devnet home>/net.json; archived as devnet/net.json):
 * its own words, node names rather than peer ids, from which each node's net_conditions.json is
 * made (compose.ts) every time one changes and before every start.
 *   {"version": 1,
 *    "links": [{"node": "validator-0", "peer": "validator-1" | "*", "direction": "out" | "in",
 *               "latency_ms": 100, "jitter_ms": 20, "loss": 0.01, "rate_bps": 1000000}, …],
 *    "one_way": [{"from": "validator-0", "to": "validator-1"}, …],
 *    "zones": null | {"matrix": {…}, "nodes": {"validator-0": "eu", …}}}
 * `one_way`: from's messages do not reach to (to is deaf to from). `zones` null: the manifest's.
 * Pure: the file's text in and out, and the changes the commands make.
 */
import type { Direction, LinkRule } from '@chain-devnet/node/testnet';
import { type ZoneSetup, zoneProblems } from './zones.js';

/** What a rule may set (latencyMs, jitterMs, loss, rateBps), as the node's file has them. */
export type LinkFields = Omit<LinkRule, 'peer' | 'direction'>;

export interface NetLink extends LinkFields {
  readonly node: string;
  /** A node's name, or `*`: every peer (its rate then the node's whole uplink or downlink). */
  readonly peer: string;
  readonly direction: Direction;
}

export interface OneWayCut {
  /** Whose messages do not arrive. */
  readonly from: string;
  /** Who does not receive them. */
  readonly to: string;
}

export interface NetState {
  readonly links: readonly NetLink[];
  readonly oneWay: readonly OneWayCut[];
  /** Set at run time (devnet zones); null: the manifest's zones. */
  readonly zones: ZoneSetup | null;
}

export const NO_NET: NetState = { links: [], oneWay: [], zones: null };
export const NET_STATE_VERSION = 1;

const FIELDS = ['latencyMs', 'jitterMs', 'loss', 'rateBps'] as const;
const KEYS: Record<(typeof FIELDS)[number], string> = {
  latencyMs: 'latency_ms',
  jitterMs: 'jitter_ms',
  loss: 'loss',
  rateBps: 'rate_bps',
};

/** The fields a link sets, as a LinkFields. */
export function fieldsOf(l: LinkFields): LinkFields {
  const o: { -readonly [K in keyof LinkFields]: LinkFields[K] } = {};
  for (const f of FIELDS) if (l[f] !== undefined) o[f] = l[f];
  return o;
}

/** Sets `fields` on the links of `node` to each of `peers` in each direction (other fields kept). */
export function withLinks(
  s: NetState,
  node: string,
  peers: readonly string[],
  directions: readonly Direction[],
  fields: LinkFields,
): NetState {
  let links = [...s.links];
  for (const peer of peers)
    for (const direction of directions) {
      const i = links.findIndex((l) => l.node === node && l.peer === peer && l.direction === direction);
      const was = i === -1 ? {} : fieldsOf(links[i]!);
      const next: NetLink = { node, peer, direction, ...was, ...fieldsOf(fields) };
      if (i === -1) links.push(next);
      else links = links.map((l, j) => (j === i ? next : l));
    }
  return { ...s, links };
}

/** Removes the links of `node` (to `peers` only, in `directions` only, when given). */
export function withoutLinks(
  s: NetState,
  node: string | null,
  peers: readonly string[] | null,
  directions: readonly Direction[],
): NetState {
  const gone = (l: NetLink) =>
    (node === null || l.node === node) &&
    (peers === null || peers.includes(l.peer)) &&
    directions.includes(l.direction);
  return { ...s, links: s.links.filter((l) => !gone(l)) };
}

/** Adds the one-way cut "from's messages do not reach to" (once). */
export function withOneWay(s: NetState, from: string, to: string): NetState {
  if (s.oneWay.some((c) => c.from === from && c.to === to)) return s;
  return { ...s, oneWay: [...s.oneWay, { from, to }] };
}

/** The file's text for `s`. */
export function formatNetState(s: NetState): string {
  const links = s.links.map((l) => {
    const o: Record<string, unknown> = { node: l.node, peer: l.peer, direction: l.direction };
    for (const f of FIELDS) if (l[f] !== undefined) o[KEYS[f]] = l[f];
    return o;
  });
  const oneWay = s.oneWay.map((c) => ({ from: c.from, to: c.to }));
  return `${JSON.stringify({ version: NET_STATE_VERSION, links, one_way: oneWay, zones: s.zones }, null, 2)}\n`;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

class Bad extends Error {}

function linkOf(v: unknown, at: string, known: (n: string) => boolean): NetLink {
  if (!isObj(v)) throw new Bad(`${at} must be an object`);
  const extra = Object.keys(v).find(
    (k) => !['node', 'peer', 'direction', ...Object.values(KEYS)].includes(k),
  );
  if (extra !== undefined) throw new Bad(`${at}.${extra} is not a field of a link`);
  if (typeof v.node !== 'string' || !known(v.node)) throw new Bad(`${at}.node must be a node of the devnet`);
  if (typeof v.peer !== 'string' || (v.peer !== '*' && !known(v.peer)))
    throw new Bad(`${at}.peer must be a node of the devnet or "*"`);
  if (v.direction !== 'out' && v.direction !== 'in') throw new Bad(`${at}.direction must be "out" or "in"`);
  const l: { -readonly [K in keyof NetLink]: NetLink[K] } = {
    node: v.node,
    peer: v.peer,
    direction: v.direction,
  };
  for (const f of FIELDS) {
    const x = v[KEYS[f]];
    if (x === undefined) continue;
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0)
      throw new Bad(`${at}.${KEYS[f]} must be a number`);
    l[f] = x;
  }
  return l;
}

function zonesOf(v: unknown, known: (n: string) => boolean): ZoneSetup | null {
  if (v === null || v === undefined) return null;
  if (!isObj(v) || !isObj(v.nodes)) throw new Bad('zones must be null or { matrix, nodes }');
  const nodes = v.nodes as Record<string, string>;
  const stranger = Object.keys(nodes).find((n) => !known(n));
  if (stranger !== undefined) throw new Bad(`zones.nodes.${stranger} is not a node of the devnet`);
  const problems = zoneProblems(v.matrix, nodes, 'zones.matrix', (n) => `zones.nodes.${n}`);
  if (problems.length > 0) throw new Bad(problems[0]!);
  return { matrix: v.matrix as ZoneSetup['matrix'], nodes };
}

/** The state in `text`, or what is wrong with it (naming the field); `known`: a node of the devnet. */
export function parseNetState(
  text: string,
  known: (name: string) => boolean,
): { ok: true; state: NetState } | { ok: false; error: string } {
  try {
    const j: unknown = JSON.parse(text);
    if (!isObj(j) || j.version !== NET_STATE_VERSION) throw new Bad(`version must be ${NET_STATE_VERSION}`);
    if (!Array.isArray(j.links ?? [])) throw new Bad('links must be an array');
    if (!Array.isArray(j.one_way ?? [])) throw new Bad('one_way must be an array');
    const links = ((j.links ?? []) as unknown[]).map((l, i) => linkOf(l, `links[${i}]`, known));
    const oneWay = ((j.one_way ?? []) as unknown[]).map((c, i) => {
      if (
        !isObj(c) ||
        typeof c.from !== 'string' ||
        typeof c.to !== 'string' ||
        !known(c.from) ||
        !known(c.to)
      )
        throw new Bad(`one_way[${i}] must be { from, to }, nodes of the devnet`);
      return { from: c.from, to: c.to };
    });
    return { ok: true, state: { links, oneWay, zones: zonesOf(j.zones, known) } };
  } catch (e) {
    if (e instanceof Bad || e instanceof SyntaxError) return { ok: false, error: e.message };
    throw e;
  }
}

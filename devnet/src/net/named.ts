/**
 * A node's conditions in force as people and programs read them (`devnet net --json`, each node's
 * `net` in `devnet status --json` and the panel): its net_conditions.json (compose.ts) with peer
 * ids back to node names, fields in the file's words. Pure.
 */
import type { Direction } from '@chain-devnet/node/testnet';
import { conditionsOf, type NamedPeer } from './compose.js';
import type { NetState } from './netState.js';
import type { ZoneSetup } from './zones.js';

/** One link: the peer by name (or `*`), the fields it sets. */
export interface NetLinkJson {
  readonly peer: string;
  readonly direction: Direction;
  readonly latency_ms?: number;
  readonly jitter_ms?: number;
  readonly loss?: number;
  readonly rate_bps?: number;
}

export interface NodeNetJson {
  readonly zone: string | null;
  /** What its net_conditions.json says: zone-derived and set by devnet net, merged. */
  readonly links: readonly NetLinkJson[];
  /** The nodes whose messages do not reach it (one-way partitions). */
  readonly deaf_to: readonly string[];
}

export function namedConditions(
  me: string,
  s: NetState,
  zones: ZoneSetup | null,
  peers: readonly NamedPeer[],
): NodeNetJson {
  const nameOf = (id: string) => (id === '*' ? '*' : (peers.find((p) => p.peerId === id)?.name ?? id));
  const c = conditionsOf(me, s, zones, peers);
  return {
    zone: zones?.nodes[me] ?? null,
    links: c.links.map((l) => ({
      peer: nameOf(l.peer),
      direction: l.direction,
      ...(l.latencyMs === undefined ? {} : { latency_ms: l.latencyMs }),
      ...(l.jitterMs === undefined ? {} : { jitter_ms: l.jitterMs }),
      ...(l.loss === undefined ? {} : { loss: l.loss }),
      ...(l.rateBps === undefined ? {} : { rate_bps: l.rateBps }),
    })),
    deaf_to: c.deafTo.map(nameOf).sort(),
  };
}

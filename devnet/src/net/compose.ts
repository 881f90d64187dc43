/**
 * One node's net_conditions.json from what the devnet keeps (netState.ts) and the zones in force
 * (zones.ts), node names resolved to peer ids: its `*` rules as set; for each peer a rule whose
 * latency, jitter and loss are the zone's (on `out`), each replaced by the node's `*` rule where
 * it sets it and by its rule for that peer where that sets it (node rules override zone-derived
 * fields; a peer's rate is that link's own); deaf_to the peers cut one way towards it. Pure.
 */
import type { Direction, LinkRule, NetConditions } from '@chain-devnet/node/testnet';
import { fieldsOf, type LinkFields, type NetState } from './netState.js';
import { type ZoneSetup, zoneOut } from './zones.js';

const DIRECTIONS: readonly Direction[] = ['out', 'in'];

/** A node by name and peer id (the runtime's PeerInfo is one). */
export interface NamedPeer {
  readonly name: string;
  readonly peerId: string;
}

/** The fields of `over` where set, else `under`'s (latency, jitter, loss only). */
function overlay(under: LinkFields, over: LinkFields | undefined): LinkFields {
  const o: { -readonly [K in keyof LinkFields]: LinkFields[K] } = { ...under };
  if (over?.latencyMs !== undefined) o.latencyMs = over.latencyMs;
  if (over?.jitterMs !== undefined) o.jitterMs = over.jitterMs;
  if (over?.loss !== undefined) o.loss = over.loss;
  return o;
}

export function conditionsOf(
  me: string,
  s: NetState,
  zones: ZoneSetup | null,
  peers: readonly NamedPeer[],
): NetConditions {
  const mine = s.links.filter((l) => l.node === me);
  const links: LinkRule[] = [];
  for (const direction of DIRECTIONS) {
    const every = mine.find((l) => l.peer === '*' && l.direction === direction);
    if (every !== undefined) links.push({ peer: '*', direction, ...fieldsOf(every) });
    for (const p of peers) {
      if (p.name === me) continue;
      const own = mine.find((l) => l.peer === p.name && l.direction === direction);
      const zone = direction === 'out' ? zoneOut(zones, me, p.name) : null;
      if (zone === null && own === undefined) continue;
      const fields = zone === null ? fieldsOf(own!) : overlay(overlay(zone, every), own);
      const rate = own?.rateBps;
      links.push({
        peer: p.peerId,
        direction,
        ...overlay({}, fields),
        ...(rate === undefined ? {} : { rateBps: rate }),
      });
    }
  }
  const deafTo = s.oneWay
    .filter((c) => c.to === me)
    .map((c) => peers.find((p) => p.name === c.from)?.peerId)
    .filter((id): id is string => id !== undefined);
  return { links, deafTo };
}

/**
 * `devnet net --probe`: each link measured by its nodes (POST /net/probe, docs/PROTOCOL.md, "The
 * link probe") beside what the conditions in force ask of it. A link A↔B is probed once, by A:
 * its round trip is asked as A.out[B] + B.in[A] + B.out[A] + A.in[B] latencies, its up rate
 * (A to B) as the least rate on that way (A's out link and uplink, B's in link and downlink), its
 * down rate the same the other way (null: no rate asked). One probe at a time, so that probes do
 * not share a node's buckets.
 */
import type { Direction, NetConditions } from '@chain-devnet/node/testnet';
import type { Devnet } from '../devnet/devnet.js';
import type { PeerInfo } from '../runtime/runtime.js';

export interface ProbeRow {
  readonly from: string;
  readonly to: string;
  readonly asked: {
    readonly rtt_ms: number;
    readonly up_bps: number | null;
    readonly down_bps: number | null;
  };
  readonly measured: {
    readonly rtt_ms: number;
    readonly up_bps: number | null;
    readonly down_bps: number | null;
  } | null;
  /** Why it was not measured (the node's refusal, its silence). */
  readonly error: string | null;
}

function rule(c: NetConditions, peer: string | '*', direction: Direction) {
  return c.links.find((l) => l.peer === peer && l.direction === direction);
}

function latency(c: NetConditions, peer: string, direction: Direction): number {
  return rule(c, peer, direction)?.latencyMs ?? rule(c, '*', direction)?.latencyMs ?? 0;
}

function rates(c: NetConditions, peer: string, direction: Direction): number[] {
  return [rule(c, peer, direction)?.rateBps, rule(c, '*', direction)?.rateBps].filter(
    (r): r is number => r !== undefined,
  );
}

const least = (xs: number[]) => (xs.length === 0 ? null : Math.min(...xs));

/** What the conditions ask of the link a→b, probed by a. */
export function askedOf(a: PeerInfo, b: PeerInfo, ca: NetConditions, cb: NetConditions): ProbeRow['asked'] {
  return {
    rtt_ms:
      latency(ca, b.peerId, 'out') +
      latency(cb, a.peerId, 'in') +
      latency(cb, a.peerId, 'out') +
      latency(ca, b.peerId, 'in'),
    up_bps: least([...rates(ca, b.peerId, 'out'), ...rates(cb, a.peerId, 'in')]),
    down_bps: least([...rates(cb, a.peerId, 'out'), ...rates(ca, b.peerId, 'in')]),
  };
}

/** The links to probe: NODE's to each peer, or every pair once (the first in the devnet's order probes). */
function pairsOf(all: readonly PeerInfo[], node: string | undefined): [PeerInfo, PeerInfo][] {
  if (node !== undefined) {
    const a = all.find((p) => p.name === node)!;
    return all.filter((p) => p !== a).map((b) => [a, b]);
  }
  return all.flatMap((a, i) => all.slice(i + 1).map((b): [PeerInfo, PeerInfo] => [a, b]));
}

export async function probeLinks(d: Devnet, node: string | undefined, bytes: number): Promise<ProbeRow[]> {
  if (node !== undefined) d.node(node);
  const all = await d.peers();
  const conditions = await d.net.conditions(all);
  const rows: ProbeRow[] = [];
  for (const [a, b] of pairsOf(all, node)) {
    const asked = askedOf(a, b, conditions.get(a.name)!, conditions.get(b.name)!);
    try {
      // The node's own bound is 60 s for each exchange.
      const m = await (await d.client(a.name, 190_000)).netProbe(b.peerId, bytes);
      rows.push({
        from: a.name,
        to: b.name,
        asked,
        measured: { rtt_ms: m.rtt_ms, up_bps: m.up_bps, down_bps: m.down_bps },
        error: null,
      });
    } catch (e) {
      rows.push({ from: a.name, to: b.name, asked, measured: null, error: (e as Error).message });
    }
  }
  return rows;
}

/**
 * The network conditions of a running devnet, as `devnet net`, `devnet zones`, `devnet partition`,
 * the testkit, the scenario steps and the panel ask for them: names checked, then one change of
 * what the devnet keeps (runtime/netConditions.ts), which writes every node's file again. Two-way
 * partitions stay the blocked-peers lists' (runtime/blockedPeers.ts); one-way cuts are deaf_to.
 */
import type { Direction } from '@chain-devnet/node/testnet';
import { DevnetError } from '../base/errors.js';
import type { NodeNetJson } from '../net/named.js';
import {
  fieldsOf,
  type LinkFields,
  type NetState,
  withLinks,
  withOneWay,
  withoutLinks,
} from '../net/netState.js';
import { type Shape, shapeGroups } from '../net/shapes.js';
import { type ZoneSetup, zoneProblems } from '../net/zones.js';
import type { BlockedPeers } from '../runtime/blockedPeers.js';
import type { NetControl } from '../runtime/netConditions.js';
import type { PeerInfo } from '../runtime/runtime.js';

/**
 * What the operations below act on: a network's nodes by name, the conditions it keeps and its
 * partitions. A Devnet is one (its files and its nodes' fault injection); the simulation's
 * (testkit/testnet/simNet.ts) is another, so `devnet net`'s words mean the same on both.
 */
export interface NetHost {
  /** The node `name`; an unknown name throws UNKNOWN_NODE, naming the nodes. */
  node(name: string): unknown;
  readonly nodes: readonly { readonly name: string }[];
  peers(): Promise<readonly PeerInfo[]>;
  readonly net: Pick<NetControl, 'read' | 'zones' | 'change' | 'named'>;
  readonly faults: Pick<BlockedPeers, 'partition'>;
}

export type Directions = Direction | 'both';

export interface NetRequest {
  readonly node: string;
  /** Peers by name; absent or empty: every peer (the `*` rule). */
  readonly to?: readonly string[];
  readonly direction?: Directions;
}

const directionsOf = (d: Directions | undefined): Direction[] =>
  d === undefined || d === 'both' ? ['out', 'in'] : [d];

function peersOf(d: NetHost, r: NetRequest): string[] {
  d.node(r.node);
  if (r.to === undefined || r.to.length === 0) return ['*'];
  for (const p of r.to) {
    d.node(p);
    if (p === r.node) throw new DevnetError('BAD_FLAG', `--to: ${p} is the node itself`);
  }
  return [...r.to];
}

/** Sets `fields` on the node's links (other fields it had stay); the state now. */
export async function setNet(d: NetHost, r: NetRequest, fields: LinkFields): Promise<NetState> {
  const peers = peersOf(d, r);
  if (Object.keys(fieldsOf(fields)).length === 0)
    throw new DevnetError(
      'BAD_FLAG',
      'devnet net NODE: give --latency, --jitter, --loss or --rate (or --clear)',
    );
  return d.net.change(await d.peers(), (s) => withLinks(s, r.node, peers, directionsOf(r.direction), fields));
}

/** Clears the node's links (to `to` only, in `direction` only, when given); no node: every node's. */
export async function clearNet(d: NetHost, r: Partial<NetRequest> = {}): Promise<NetState> {
  const node = r.node ?? null;
  const peers = node === null || r.to === undefined || r.to.length === 0 ? null : peersOf(d, { ...r, node });
  if (node !== null) d.node(node);
  return d.net.change(await d.peers(), (s) => withoutLinks(s, node, peers, directionsOf(r.direction)));
}

/** Replaces the zones in force (null: back to the manifest's); problems name the field. */
export async function setZones(d: NetHost, setup: ZoneSetup | null, source = 'zones'): Promise<NetState> {
  if (setup !== null) {
    for (const name of Object.keys(setup.nodes)) d.node(name);
    const problems = zoneProblems(
      setup.matrix,
      setup.nodes,
      `${source}.zones`,
      (n) => `${source}.nodes.${n}`,
    );
    if (problems.length > 0) throw new DevnetError('BAD_FLAG', problems.join('; '));
  }
  return d.net.change(await d.peers(), (s) => ({ ...s, zones: setup }));
}

/** Refuses a zone the zones in force do not define (`devnet add --zone`), before anything is recorded. */
export async function checkZone(d: NetHost, zone: string): Promise<void> {
  const zones = d.net.zones(await d.net.read(await d.peers()));
  const known = Object.keys(zones?.matrix ?? {});
  if (!known.includes(zone))
    throw new DevnetError(
      'BAD_FLAG',
      `--zone: ${JSON.stringify(zone)} is not a zone in force (${known.join(', ') || 'none'})`,
    );
}

/**
 * A node added later joins a zone: the zones in force, with it, become the devnet's own (as
 * `devnet zones` sets them), and every node's file is written again (it and its peers learn
 * their round trips).
 */
export async function joinZone(d: NetHost, name: string, zone: string): Promise<void> {
  const all = await d.peers();
  const zones = d.net.zones(await d.net.read(all));
  if (zones === null) return;
  await d.net.change(all, (s) => ({
    ...s,
    zones: { matrix: zones.matrix, nodes: { ...zones.nodes, [name]: zone } },
  }));
}

/** `from`'s messages no longer reach `to` (to is deaf to from); the connection stays. */
export async function oneWay(d: NetHost, from: string, to: string): Promise<NetState> {
  d.node(from);
  d.node(to);
  if (from === to)
    throw new DevnetError('BAD_FLAG', `a one-way partition needs two nodes, not ${from} twice`);
  return d.net.change(await d.peers(), (s) => withOneWay(s, from, to));
}

/** A partition of a shape over every node (net/shapes.ts); its groups. */
export async function partitionShape(d: NetHost, shape: Shape): Promise<string[][]> {
  let groups: string[][];
  try {
    groups = shapeGroups(
      shape,
      d.nodes.map((n) => n.name),
    );
  } catch (e) {
    throw new DevnetError('BAD_FLAG', `--shape ${shape}: ${(e as Error).message}`);
  }
  await d.faults.partition(groups, await d.peers());
  return groups;
}

/** Ends every partition: the groups and the one-way cuts (a node disconnected stays so). */
export async function healAll(d: NetHost): Promise<void> {
  const all = await d.peers();
  await d.faults.partition(null, all);
  await d.net.change(all, (s) => ({ ...s, oneWay: [] }));
}

/** Every node's conditions in force, by name. */
export async function netOf(d: NetHost): Promise<Record<string, NodeNetJson>> {
  return d.net.named(await d.peers());
}

/**
 * The network conditions of a simulated run, as a devnet keeps them (operations/net.ts's NetHost):
 * the same state in node names (net/netState.ts) with the manifest's zones unless replaced, made
 * into each node's link rules by the same composition (net/compose.ts) as a node's
 * net_conditions.json, and applied as the simulation's actions (a node's `links`, a `oneWay`
 * cut, a `split`, a `heal`), so that `net.conditions`, the scenario steps `net`, `zones`,
 * `oneWay` and `partitionShape` mean on the simulation what they mean on a devnet. The
 * simulation's peer ids are its node names.
 */
import type { SimCluster } from '@chain-devnet/node/sim';
import { DevnetError } from '../../base/errors.js';
import { conditionsOf } from '../../net/compose.js';
import { type NodeNetJson, namedConditions } from '../../net/named.js';
import { type NetState, NO_NET } from '../../net/netState.js';
import type { ZoneSetup } from '../../net/zones.js';
import type { NetHost } from '../../operations/net.js';
import type { PeerInfo } from '../../runtime/runtime.js';

type Keeper = NetHost['net'];
type Groups = Parameters<NetHost['faults']['partition']>[0];

export class SimNet implements NetHost {
  private state: NetState = NO_NET;
  /** Each node's rules as last applied (JSON), to apply only what changed. */
  private readonly applied = new Map<string, string>();
  /** The one-way cuts applied (`from>to`); a heal ends them all. */
  private readonly cuts = new Set<string>();
  readonly net: Keeper;
  readonly faults: NetHost['faults'];

  private constructor(
    private readonly cluster: SimCluster,
    private readonly manifestZones: ZoneSetup | null,
  ) {
    for (const n of cluster.names) this.applied.set(n, '[]');
    this.net = {
      read: async () => this.state,
      zones: (s) => s.zones ?? this.manifestZones,
      change: async (all, how) => {
        this.state = how(this.state);
        await this.apply(all);
        return this.state;
      },
      named: async (all) => this.named(all),
    };
    this.faults = { partition: (groups) => this.partition(groups) };
  }

  /** The conditions of `cluster`, its manifest's zones applied. */
  static async open(cluster: SimCluster, manifestZones: ZoneSetup | null): Promise<SimNet> {
    const net = new SimNet(cluster, manifestZones);
    await net.apply(await net.peers());
    return net;
  }

  node(name: string): string {
    if (!this.cluster.names.includes(name))
      throw new DevnetError(
        'UNKNOWN_NODE',
        `no node named ${name} in this simulation (nodes: ${this.cluster.names.join(', ')})`,
      );
    return name;
  }

  get nodes(): { name: string }[] {
    return this.cluster.names.map((name) => ({ name }));
  }

  async peers(): Promise<PeerInfo[]> {
    return this.cluster.names.map((name) => ({ name, peerId: name, p2pPort: 0 }));
  }

  private named(all: readonly PeerInfo[]): Record<string, NodeNetJson> {
    const zones = this.net.zones(this.state);
    return Object.fromEntries(all.map((p) => [p.name, namedConditions(p.name, this.state, zones, all)]));
  }

  /** Each node's rules and the one-way cuts now, as actions of the simulation (only what changed). */
  private async apply(all: readonly PeerInfo[]): Promise<void> {
    const zones = this.net.zones(this.state);
    for (const p of all) {
      const links = conditionsOf(p.name, this.state, zones, all).links;
      const key = JSON.stringify(links);
      if (this.applied.get(p.name) === key) continue;
      this.applied.set(p.name, key);
      await this.cluster.apply({ kind: 'links', node: p.name, links });
    }
    const wanted = new Set(this.state.oneWay.map((c) => `${c.from}>${c.to}`));
    for (const c of this.cuts) if (!wanted.has(c)) this.cuts.delete(c); // ended by a heal
    for (const c of this.state.oneWay) {
      const id = `${c.from}>${c.to}`;
      if (this.cuts.has(id)) continue;
      this.cuts.add(id);
      await this.cluster.apply({ kind: 'oneWay', from: c.from, to: c.to });
    }
  }

  private async partition(groups: Groups): Promise<void> {
    if (groups === null) {
      await this.cluster.apply({ kind: 'heal' });
      this.cuts.clear();
    } else await this.cluster.apply({ kind: 'split', groups });
  }
}

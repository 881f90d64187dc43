/**
 * Network conditions in a test (`net.conditions`): latency, jitter, loss and rate on a node's
 * links, zones, one-way partitions and the partition shapes, through the same operations as
 * `devnet net`, `devnet zones` and `devnet partition` (operations/net.ts), real on every runtime
 * (the nodes' fault injection) and on the simulation (simNet.ts). A bad value is a
 * TestkitUsageError naming its field.
 */
import type { NodeNetJson } from '../../net/named.js';
import type { Shape } from '../../net/shapes.js';
import { type FieldsInput, linkFieldsOf } from '../../net/units.js';
import type { ZoneSetup } from '../../net/zones.js';
import {
  clearNet,
  type Directions,
  type NetHost,
  netOf,
  oneWay,
  partitionShape,
  setNet,
  setZones,
} from '../../operations/net.js';
import { TestkitUsageError } from '../errors.js';

export interface LinkChoice {
  /** Only the links to these nodes (default every peer). */
  readonly to?: readonly string[];
  /** out: what the node sends; in: what it receives; both (default). */
  readonly direction?: Directions;
}

export class Conditions {
  constructor(
    private readonly devnet: NetHost,
    private readonly log: (line: string) => void,
  ) {}

  /** Sets conditions on `node`'s links, e.g. `set('validator-1', { latency: '100ms', loss: '1%' })`. */
  async set(node: string, fields: FieldsInput, o: LinkChoice = {}): Promise<void> {
    const f = linkFieldsOf(fields, `conditions.set(${node})`);
    if (!f.ok) throw new TestkitUsageError(f.problems.join('; '));
    await setNet(this.devnet, { node, ...o }, f.fields);
    this.log(
      `net: ${node} ${JSON.stringify(fields)}${o.to ? ` to ${o.to.join(', ')}` : ''} ${o.direction ?? 'both'}`,
    );
  }

  /** Clears `node`'s conditions (those links only, when given), or every node's. */
  async clear(node?: string, o: LinkChoice = {}): Promise<void> {
    await clearNet(this.devnet, { ...(node === undefined ? {} : { node }), ...o });
    this.log(`net: ${node ?? 'every node'} cleared`);
  }

  /** Replaces the zones in force (null: back to the manifest's). */
  async zones(setup: ZoneSetup | null): Promise<void> {
    await setZones(this.devnet, setup);
    this.log(`zones: ${setup === null ? "the manifest's" : JSON.stringify(setup.nodes)}`);
  }

  /** `from`'s messages no longer reach `to` (to deaf to from); Testnet.heal ends it. */
  async oneWay(from: string, to: string): Promise<void> {
    await oneWay(this.devnet, from, to);
    this.log(`one-way: ${from}'s messages no longer reach ${to}`);
  }

  /** A partition of a shape over every node (minority, halves, bridge, ring); Testnet.heal ends it. */
  async shape(shape: Shape): Promise<string[][]> {
    const groups = await partitionShape(this.devnet, shape);
    this.log(`partition ${shape}: ${groups.map((g) => `[${g.join(', ')}]`).join(' ')}`);
    return groups;
  }

  /** Each node's conditions in force, peers by name. */
  inForce(): Promise<Record<string, NodeNetJson>> {
    return netOf(this.devnet);
  }
}

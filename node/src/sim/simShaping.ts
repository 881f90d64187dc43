/**
 * The network conditions of the other runtimes on the simulated network: each node's link rules
 * (p2p/shaping/conditions.ts, the very rules a devnet writes into a node's net_conditions.json,
 * peers by name) and the same model of a link as TCP sees it (p2p/shaping/linkModel.ts: a token
 * bucket per direction, latency and jitter, a lost segment paid for with a retransmission delay).
 * A message from A to B passes A's `out` rule for B, then the wire (the simulation's own link
 * model), then B's `in` rule for A, as a chunk passes A's shaping, the socket and B's shaping on
 * a devnet. Nothing is drawn for a link no rule shapes, so a run without conditions draws what it
 * drew before they existed.
 */
import {
  type Direction,
  isClear,
  type LinkRule,
  linkCondition,
  type NetConditions,
} from '../p2p/shaping/conditions.js';
import {
  type Bucket,
  deliveryAt,
  type LinkState,
  newBucket,
  newLinkState,
} from '../p2p/shaping/linkModel.js';

interface NodeShaping {
  readonly conditions: NetConditions;
  /** The node's shared bucket of each direction (a `*` rule's rate), kept across rule changes. */
  readonly shared: Record<Direction, Bucket>;
  /** Each link's own bucket and last delivery, by `${peer}/${direction}`. */
  readonly links: Map<string, LinkState>;
}

export class SimShaping {
  private readonly nodes = new Map<string, NodeShaping>();
  /** How many nodes have a rule now. */
  private shaped = 0;

  constructor(private readonly random: () => number) {}

  /** `node`'s link rules from now on (peers by name); none: its links as the wire makes them. */
  set(node: string, rules: readonly LinkRule[]): void {
    const was = this.nodes.get(node);
    this.shaped += (rules.length > 0 ? 1 : 0) - ((was?.conditions.links.length ?? 0) > 0 ? 1 : 0);
    // Its buckets are kept through a clear, so rules cleared and set at once are the rules set.
    this.nodes.set(node, {
      conditions: { links: rules, deafTo: [] },
      shared: was?.shared ?? { out: newBucket(), in: newBucket() },
      links: was?.links ?? new Map(),
    });
  }

  /** `node`'s rules in force. */
  rules(node: string): readonly LinkRule[] {
    return this.nodes.get(node)?.conditions.links ?? [];
  }

  /** Whether any node has a rule (else every message skips the shaping). */
  get active(): boolean {
    return this.shaped > 0;
  }

  /**
   * When `bytes` sent by `from` to `to` at `now` arrive: through `from`'s out rule, `wireMs` of
   * the wire, then `to`'s in rule.
   */
  arrival(from: string, to: string, now: number, wireMs: number, bytes: number): number {
    const sent = this.pass(from, to, 'out', now, bytes);
    return this.pass(to, from, 'in', sent + wireMs, bytes);
  }

  /** When a chunk handed to `node`'s shaping of its link with `peer` at `t` leaves it. */
  private pass(node: string, peer: string, direction: Direction, t: number, bytes: number): number {
    const n = this.nodes.get(node);
    if (n === undefined || n.conditions.links.length === 0) return t;
    const c = linkCondition(n.conditions, peer, direction);
    if (isClear(c)) return t;
    const key = `${peer}/${direction}`;
    let state = n.links.get(key);
    if (state === undefined) {
      state = newLinkState();
      n.links.set(key, state);
    }
    return deliveryAt(c, state, n.shared[direction], t, bytes, this.random);
  }
}

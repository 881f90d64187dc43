/**
 * The simulation's network: what consensus sees of the network (GossipPort), for every node of a
 * run, over the virtual clock. libp2p is not in it at all (it has timers of its own); each
 * published message goes straight to each subscribed peer over a directed link that delays it by
 * the link's latency plus a seeded jitter, and keeps order as the TCP stream under gossipsub
 * does. Loss is modelled as TCP sees it (shaping's model, p2p/shaping/): a lost segment is sent
 * again after a retransmission timeout that doubles, so loss costs time and never a message.
 * A cut link (one way or both) delivers nothing while it is cut, as a partition does.
 */
import type { GossipPort, Verdict } from '../p2p/network.js';
import type { SimRandom } from './random.js';
import type { SimScheduler } from './scheduler.js';

export interface LinkModel {
  readonly latencyMs: number;
  /** Each message's delay is latency plus up to this much more, drawn from the seed. */
  readonly jitterMs: number;
  /** The chance that a send is lost and sent again (0 to below 1). */
  readonly loss: number;
  /** The first retransmission's delay; each one after waits twice the one before. */
  readonly retransmitMs: number;
}

export const DEFAULT_LINK: LinkModel = { latencyMs: 5, jitterMs: 20, loss: 0, retransmitMs: 200 };

type Handler = (data: Uint8Array, from: string) => Verdict | Promise<Verdict>;

export class SimNetwork {
  private readonly ports = new Map<string, SimGossip>();
  private readonly cuts = new Set<string>();
  /** Per directed link, when its last message arrives: a later message never overtakes it. */
  private readonly lastArrival = new Map<string, number>();
  /** Messages handed to a handler, and handlers that threw (a node's defect, kept for the run's report). */
  delivered = 0;
  readonly failures: { node: string; topic: string; error: string }[] = [];

  constructor(
    private readonly scheduler: SimScheduler,
    private readonly random: SimRandom,
    private readonly link: LinkModel = DEFAULT_LINK,
  ) {}

  /** The node `name`'s view of the network. */
  port(name: string): GossipPort {
    const port = new SimGossip(name, this);
    this.ports.set(name, port);
    return port;
  }

  /** Stops messages from `from` reaching `to` (one way); `heal` lets them through again. */
  cut(from: string, to: string): void {
    this.cuts.add(`${from}>${to}`);
  }

  heal(): void {
    this.cuts.clear();
  }

  reaches(from: string, to: string): boolean {
    return from !== to && this.ports.has(to) && !this.cuts.has(`${from}>${to}`);
  }

  peersOf(name: string): string[] {
    return [...this.ports.keys()].filter((p) => this.reaches(name, p) && this.reaches(p, name));
  }

  /** Tells every other port watching `topic` that `name` joined it, a link's latency later, as gossipsub's subscription exchange does. */
  announce(name: string, topic: string): void {
    for (const p of this.ports.values())
      if (p.name !== name && this.reaches(name, p.name))
        this.scheduler.after(this.link.latencyMs, () => p.joined(topic, name));
  }

  subscribers(topic: string, from: string): string[] {
    return [...this.ports.values()].filter((p) => p.name !== from && p.handles(topic)).map((p) => p.name);
  }

  /** Sends `data` from `from` to `to` on `topic`, at the time the link gives it. */
  send(from: string, to: string, topic: string, data: Uint8Array): void {
    if (!this.reaches(from, to)) return;
    const linkId = `${from}>${to}`;
    let delay = this.link.latencyMs + this.random.next() * this.link.jitterMs;
    for (let rto = this.link.retransmitMs; this.random.chance(this.link.loss); rto *= 2) delay += rto;
    const arrival = Math.max(this.scheduler.now + delay, this.lastArrival.get(linkId) ?? 0);
    this.lastArrival.set(linkId, arrival);
    this.scheduler.after(arrival - this.scheduler.now, () => {
      // A link cut while the message was on its way loses it, as a partition of a TCP stream does.
      if (!this.reaches(from, to)) return;
      this.ports.get(to)?.deliver(topic, data, from);
    });
  }

  noteFailure(node: string, topic: string, e: unknown): void {
    this.failures.push({ node, topic, error: e instanceof Error ? e.message : String(e) });
  }

  noteDelivered(): void {
    this.delivered++;
  }
}

class SimGossip implements GossipPort {
  private readonly handlers = new Map<string, Handler>();
  private readonly joinWatchers = new Map<string, ((peer: string) => void)[]>();
  /** The peers heard of on each topic: each is told to a watcher once, as gossipsub tells a join. */
  private readonly known = new Map<string, Set<string>>();

  constructor(
    readonly name: string,
    private readonly net: SimNetwork,
  ) {}

  handles(topic: string): boolean {
    return this.handlers.has(topic);
  }

  subscribe(topic: string, onMessage: Handler): void {
    this.handlers.set(topic, onMessage);
    this.net.announce(this.name, topic);
  }

  async publish(topic: string, data: Uint8Array): Promise<void> {
    for (const to of this.net.subscribers(topic, this.name)) this.net.send(this.name, to, topic, data);
  }

  publishSplit(topic: string, versions: readonly Uint8Array[]): void {
    const peers = this.net.subscribers(topic, this.name);
    peers.forEach((to, i) => {
      const data = versions[Math.floor((i * versions.length) / peers.length)];
      if (data !== undefined) this.net.send(this.name, to, topic, data);
    });
  }

  /** `onJoin` hears of each peer already on `topic` and of each that joins it later. */
  onTopicPeerJoined(topic: string, onJoin: (peer: string) => void): void {
    this.joinWatchers.set(topic, [...(this.joinWatchers.get(topic) ?? []), onJoin]);
    for (const peer of this.known.get(topic) ?? []) onJoin(peer);
    for (const peer of this.net.subscribers(topic, this.name)) this.joined(topic, peer);
  }

  joined(topic: string, peer: string): void {
    const known = this.known.get(topic) ?? new Set<string>();
    this.known.set(topic, known);
    if (known.has(peer)) return;
    known.add(peer);
    for (const onJoin of this.joinWatchers.get(topic) ?? []) onJoin(peer);
  }

  connectedPeers(): string[] {
    return this.net.peersOf(this.name);
  }

  deliver(topic: string, data: Uint8Array, from: string): void {
    const handler = this.handlers.get(topic);
    if (handler === undefined) return;
    this.net.noteDelivered();
    try {
      void Promise.resolve(handler(data, from)).catch((e: unknown) =>
        this.net.noteFailure(this.name, topic, e),
      );
    } catch (e) {
      this.net.noteFailure(this.name, topic, e);
    }
  }
}

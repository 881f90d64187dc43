/**
 * The simulation's network: what a node's parts above the transport see of it (NodePort: gossip
 * for consensus and transactions, one request and its answer for block and state sync), for every
 * node of a run, over the virtual clock. libp2p is not in it at all (it has timers of its own);
 * each message goes straight to its peer over a directed link that delays it by the link's latency
 * plus a seeded jitter, and keeps order as the TCP stream under gossipsub does. Loss is modelled as
 * TCP sees it (shaping's model, p2p/shaping/): a lost segment is sent again after a retransmission
 * timeout that doubles, so loss costs time and never a message. A cut link (one way or both)
 * delivers nothing while it is cut, as a partition does; a request whose question or answer is
 * cut times out. A node that crashed is down: what was on its way to or from it is lost, as its
 * connections were, and its peers hear it join again when it is back. Each node's links may be
 * shaped further by the conditions of `devnet net` and zones (simShaping.ts): the same rules and
 * model as the other runtimes' shaping layer, on top of the wire.
 */
import type { NodePort, Verdict } from '../p2p/network.js';
import type { LinkRule } from '../p2p/shaping/conditions.js';
import type { SimRandom } from './random.js';
import type { SimScheduler } from './scheduler.js';
import { SimShaping } from './simShaping.js';

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
type Server = (request: Uint8Array, from: string) => Promise<Uint8Array>;

export class SimNetwork {
  private readonly ports = new Map<string, SimPort>();
  private readonly cuts = new Set<string>();
  private readonly disconnected = new Set<string>();
  /** Per directed link, when its last message arrives: a later message never overtakes it. */
  private readonly lastArrival = new Map<string, number>();
  private readonly shaping: SimShaping;
  /** Messages handed to a handler, and handlers that threw (a node's defect, kept for the run's report). */
  delivered = 0;
  requests = 0;
  readonly failures: { node: string; topic: string; error: string }[] = [];

  constructor(
    private readonly scheduler: SimScheduler,
    private readonly random: SimRandom,
    private readonly link: LinkModel = DEFAULT_LINK,
  ) {
    this.shaping = new SimShaping(() => random.next());
  }

  /** The node `name`'s view of the network, from its (re)start; the one before is gone. */
  port(name: string): NodePort {
    const port = new SimPort(name, this);
    this.ports.set(name, port);
    return port;
  }

  /** `name` crashed: nothing reaches it or leaves it until a new port; its peers forget it. */
  down(name: string): void {
    this.ports.delete(name);
    for (const p of this.ports.values()) p.forget(name);
  }

  /** Stops messages from `from` reaching `to` (one way); `heal` lets them through again. */
  cut(from: string, to: string): void {
    this.cuts.add(`${from}>${to}`);
  }

  /** The cuts ended (a node disconnected stays so: `devnet heal` leaves it too). */
  heal(): void {
    this.cuts.clear();
  }

  /** `name`'s links shaped by `rules` from now on (peers by name; none: clear), kept across its restarts. */
  shape(name: string, rules: readonly LinkRule[]): void {
    this.shaping.set(name, rules);
  }

  /** `name`'s link rules in force. */
  rulesOf(name: string): readonly LinkRule[] {
    return this.shaping.rules(name);
  }

  /** How many nodes' messages do not reach `name` (one-way cuts towards it). */
  deafCount(name: string): number {
    let n = 0;
    for (const c of this.cuts) if (c.endsWith(`>${name}`)) n++;
    return n;
  }

  /** `name` cut off from every peer, both ways, until `connect` (`devnet disconnect`). */
  disconnect(name: string): void {
    this.disconnected.add(name);
  }

  connect(name: string): void {
    this.disconnected.delete(name);
  }

  isDisconnected(name: string): boolean {
    return this.disconnected.has(name);
  }

  /** Whether any cut (a partition, a one-way cut) is in force. */
  get isCut(): boolean {
    return this.cuts.size > 0;
  }

  reaches(from: string, to: string): boolean {
    if (from === to || !this.ports.has(from) || !this.ports.has(to)) return false;
    if (this.disconnected.has(from) || this.disconnected.has(to)) return false;
    return this.cuts.size === 0 || !this.cuts.has(`${from}>${to}`);
  }

  peersOf(name: string): string[] {
    return [...this.ports.keys()].filter((p) => this.reaches(name, p) && this.reaches(p, name));
  }

  /** Tells every other port watching `topic` that `name` joined it, a link's latency later, as gossipsub's subscription exchange does. */
  announce(name: string, topic: string): void {
    for (const p of this.ports.values())
      if (p.name !== name && this.reaches(name, p.name))
        this.carry(name, p.name, ANNOUNCE_BYTES, (to) => to.joined(topic, name));
  }

  subscribers(topic: string, from: string): string[] {
    return [...this.ports.values()].filter((p) => p.name !== from && p.handles(topic)).map((p) => p.name);
  }

  /**
   * Sends `data` from `from` to `to` on `topic`, at the time the link gives it. `relayed`: the
   * receiver forwards it to its peers once it accepts it, as gossipsub forwards every message.
   * A message published to every subscriber needs no relay (each has it from its origin, so a
   * relayed copy would be one gossipsub's seen-cache drops, and costs n times the events); one
   * published to some peers only (a Byzantine validator's split) reaches the others so.
   */
  send(from: string, to: string, topic: string, data: Uint8Array, relayed = false): void {
    this.carry(from, to, data.byteLength, (port) => port.deliver(topic, data, from, relayed));
  }

  /**
   * One request and its answer within `timeoutMs`: the question crosses the link, the peer's
   * server answers it, the answer crosses back; lost on either way, or unanswered, it times out.
   */
  exchange(
    from: string,
    to: string,
    protocol: string,
    message: Uint8Array,
    timeoutMs: number,
  ): Promise<Uint8Array> {
    this.requests++;
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        cancelTimeout();
        finish();
      };
      const cancelTimeout = this.scheduler.after(
        timeoutMs,
        () => settle(() => reject(new Error(`request to ${to} timed out after ${timeoutMs} ms`))),
        from,
      );
      this.carry(from, to, message.byteLength, (server) => {
        server.answer(protocol, message, from).then(
          (answer) => this.carry(to, from, answer.byteLength, () => settle(() => resolve(answer))),
          (e: unknown) => this.carry(to, from, ANNOUNCE_BYTES, () => settle(() => reject(e))),
        );
      });
    });
  }

  /**
   * Runs `arrive` with the receiving port when `bytes` sent now from `from` reach `to`: the
   * wire's latency, jitter and retransmissions later (and the two ends' shaping, if any), never
   * before what was sent on it earlier; not at all when the link is cut then, or either end went
   * down meanwhile (its connection is gone).
   */
  private carry(from: string, to: string, bytes: number, arrive: (port: SimPort) => void): void {
    const sender = this.ports.get(from);
    const receiver = this.ports.get(to);
    if (!this.reaches(from, to) || sender === undefined || receiver === undefined) return;
    const linkId = `${from}>${to}`;
    let delay = this.link.latencyMs + this.random.next() * this.link.jitterMs;
    for (let rto = this.link.retransmitMs; this.random.chance(this.link.loss); rto *= 2) delay += rto;
    const now = this.scheduler.now;
    const due = this.shaping.active ? this.shaping.arrival(from, to, now, delay, bytes) : now + delay;
    const arrival = Math.max(due, this.lastArrival.get(linkId) ?? 0);
    this.lastArrival.set(linkId, arrival);
    this.scheduler.after(
      arrival - this.scheduler.now,
      () => {
        const same = this.ports.get(from) === sender && this.ports.get(to) === receiver;
        if (same && this.reaches(from, to)) arrive(receiver);
      },
      to, // a paused receiver reads it when it runs again
    );
  }

  noteFailure(node: string, topic: string, e: unknown): void {
    this.failures.push({ node, topic, error: e instanceof Error ? e.message : String(e) });
  }

  noteDelivered(): void {
    this.delivered++;
  }
}

/** What a subscription's announcement or an error's answer weighs on a shaped link. */
const ANNOUNCE_BYTES = 64;

/** Relayed messages a port remembers having handled; the oldest forgotten past it. */
const SEEN_BOUND = 10_000;

const messageKey = (topic: string, data: Uint8Array) => `${topic}\n${Buffer.from(data).toString('latin1')}`;

/**
 * One node's NodePort, for one run of the node (a restart gets a new one): its topic handlers, the
 * protocols it serves, the peers it has heard join each topic (told to a watcher once, as
 * gossipsub tells a join).
 */
class SimPort implements NodePort {
  private readonly handlers = new Map<string, Handler>();
  private readonly servers = new Map<string, Server>();
  private readonly joinWatchers = new Map<string, ((peer: string) => void)[]>();
  private readonly known = new Map<string, Set<string>>();
  /** The relayed messages it has handled (or sent), as gossipsub's seen-cache keeps them. */
  private readonly seen = new Set<string>();

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
    for (const data of versions) this.seen.add(messageKey(topic, data));
    peers.forEach((to, i) => {
      const data = versions[Math.floor((i * versions.length) / peers.length)];
      if (data !== undefined) this.net.send(this.name, to, topic, data, true);
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

  /** `peer` went down: when it is back, its joins are news again. */
  forget(peer: string): void {
    for (const known of this.known.values()) known.delete(peer);
  }

  connectedPeers(): string[] {
    return this.net.peersOf(this.name);
  }

  async serve(protocol: string, handler: Server): Promise<void> {
    this.servers.set(protocol, handler);
  }

  request(peer: string, protocol: string, message: Uint8Array, timeoutMs = 10_000): Promise<Uint8Array> {
    return this.net.exchange(this.name, peer, protocol, message, timeoutMs);
  }

  /** The answer of this node's server of `protocol` (a peer asking a protocol nobody serves is refused, as libp2p refuses it). */
  answer(protocol: string, request: Uint8Array, from: string): Promise<Uint8Array> {
    const server = this.servers.get(protocol);
    if (server === undefined)
      return Promise.reject(new Error(`protocol ${protocol} is not served by ${this.name}`));
    return server(request, from);
  }

  deliver(topic: string, data: Uint8Array, from: string, relayed = false): void {
    const handler = this.handlers.get(topic);
    if (handler === undefined) return;
    if (relayed) {
      const key = messageKey(topic, data);
      if (this.seen.has(key)) return; // gossipsub's seen-cache: each message handled once
      this.seen.add(key);
      if (this.seen.size > SEEN_BOUND) this.seen.delete(this.seen.values().next().value!);
    }
    this.net.noteDelivered();
    const forward = (verdict: Verdict) => {
      if (!relayed || verdict !== 'accept') return;
      for (const to of this.net.subscribers(topic, this.name))
        if (to !== from) this.net.send(this.name, to, topic, data, true);
    };
    try {
      void Promise.resolve(handler(data, from)).then(forward, (e: unknown) =>
        this.net.noteFailure(this.name, topic, e),
      );
    } catch (e) {
      this.net.noteFailure(this.name, topic, e);
    }
  }
}

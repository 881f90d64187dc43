/**
 * An in-memory network of HeightConsensus instances with virtual time: messages are delivered
 * by a scheduler the test controls (delays, drops, partitions), timeouts fire in virtual time.
 * No sockets, no clocks: every run with the same seed is the same run.
 */
import {
  activeValidators,
  applyBlock,
  type Block,
  blockHash,
  buildBlock,
  type ChainState,
  type Vote,
} from '../../src/chain/index.js';
import { HeightConsensus } from '../../src/consensus/heightConsensus.js';
import { type ConsensusAction, DEFAULT_TIMEOUTS, type Proposal } from '../../src/consensus/types.js';
import { key, type TestKey } from '../fixtures.js';

export interface Decision {
  readonly node: number;
  readonly hash: string;
  readonly round: number;
  readonly block: Block;
  readonly at: number;
}

type Message = { kind: 'proposal'; proposal: Proposal } | { kind: 'vote'; vote: Vote };

interface Event {
  at: number;
  seq: number;
  run: () => void;
}

export interface SimOptions {
  /** Delivery delay of a message from `from` to `to` in ms, or null to drop it. */
  readonly link?: (from: number, to: number, at: number) => number | null;
  /** Nodes that are down (never run). */
  readonly down?: readonly number[];
}

export class Simulation {
  now = 0;
  private seq = 0;
  private readonly queue: Event[] = [];
  readonly nodes: HeightConsensus[] = [];
  readonly decisions: Decision[] = [];
  readonly keys: TestKey[];

  constructor(
    readonly state: ChainState,
    labels: readonly string[],
    private readonly opts: SimOptions = {},
  ) {
    const order = activeValidators(state).map((v) => v.address);
    this.keys = order.map((address) => labels.map(key).find((k) => k.validator === address)!);
    const height = state.height + 1;
    const validCache = new Map<string, boolean>();
    this.makeNode = (i) => {
      const k = this.keys[i]!;
      return new HeightConsensus({
        chainId: state.params.chainId,
        height,
        validators: activeValidators(state),
        signer: { privateKey: k.privateKey, address: k.validator },
        isValid: (block) => {
          const h = blockHash(block.header);
          let ok = validCache.get(h);
          if (ok === undefined) {
            try {
              applyBlock(state, block);
              ok = true;
            } catch {
              ok = false;
            }
            validCache.set(h, ok);
          }
          return ok;
        },
        // A restarted node reads the clock again: its blocks differ from those it built before.
        build: (round) =>
          buildBlock(state, [], {
            timestamp: state.lastTimestamp + 1 + i + 100 * (this.generation[i] ?? 0),
            round,
            privateKey: k.privateKey,
          }).block,
        timeouts: DEFAULT_TIMEOUTS,
      });
    };
    this.keys.forEach((_k, i) => {
      this.nodes.push(this.makeNode(i));
      this.generation.push(0);
    });
  }

  private readonly makeNode: (i: number) => HeightConsensus;
  /** Bumped when a node crashes: its pending timers and rebroadcasts die with it. */
  private readonly generation: number[] = [];
  private readonly crashed = new Set<number>();

  /** Node i stops now: it receives nothing and sends nothing, and forgets everything. */
  crash(i: number): void {
    this.crashed.add(i);
    this.generation[i]!++;
  }

  /** Node i comes back at `at` as a fresh instance (a restarted validator that kept no votes). */
  restartAt(i: number, at: number): void {
    this.schedule(at, () => {
      this.crashed.delete(i);
      this.nodes[i] = this.makeNode(i);
      this.handle(i, this.nodes[i]!.start());
      this.scheduleRebroadcast(i);
    });
  }

  private isDown(i: number): boolean {
    return (this.opts.down?.includes(i) ?? false) || this.crashed.has(i);
  }

  private schedule(at: number, run: () => void): void {
    this.queue.push({ at, seq: this.seq++, run });
  }

  /** As the driver does: every second, a node re-sends its own messages of its current round. */
  private scheduleRebroadcast(i: number): void {
    const generation = this.generation[i];
    this.schedule(this.now + 1000, () => {
      if (this.generation[i] !== generation) return;
      this.handle(i, this.nodes[i]!.rebroadcast());
      if (this.nodes.every((n, j) => this.isDown(j) || n.isDecided)) return;
      this.scheduleRebroadcast(i);
    });
  }

  private handle(i: number, actions: ConsensusAction[]): void {
    for (const a of actions) {
      if (a.kind === 'broadcast-proposal') this.broadcast(i, { kind: 'proposal', proposal: a.proposal });
      else if (a.kind === 'broadcast-vote') this.broadcast(i, { kind: 'vote', vote: a.vote });
      else if (a.kind === 'schedule-timeout') {
        const generation = this.generation[i];
        this.schedule(this.now + a.ms, () => {
          if (this.generation[i] === generation) this.handle(i, this.nodes[i]!.onTimeout(a.step, a.round));
        });
      } else
        this.decisions.push({
          node: i,
          hash: a.blockHash,
          round: a.commit.round,
          block: a.block,
          at: this.now,
        });
      // (a decided node keeps re-sending its deciding messages, as a driver does until it moves on)
    }
  }

  private broadcast(from: number, m: Message): void {
    this.nodes.forEach((_n, to) => {
      if (to === from || this.isDown(to)) return;
      const delay = this.opts.link ? this.opts.link(from, to, this.now) : 5;
      if (delay === null) return;
      this.schedule(this.now + delay, () => {
        if (this.isDown(to)) return;
        const node = this.nodes[to]!;
        this.handle(to, m.kind === 'proposal' ? node.onProposal(m.proposal) : node.onVote(m.vote));
      });
    });
  }

  private started = false;

  /** Runs until every live node decided or virtual time passes `until`; may be called again to go on. */
  run(until = 60_000): void {
    if (!this.started) {
      this.started = true;
      this.nodes.forEach((n, i) => {
        if (this.isDown(i)) return;
        this.handle(i, n.start());
        this.scheduleRebroadcast(i);
      });
    }
    while (this.queue.length > 0) {
      this.queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const e = this.queue.shift()!;
      if (e.at > until) {
        this.queue.push(e);
        break;
      }
      this.now = e.at;
      e.run();
      if (this.nodes.every((n, i) => this.isDown(i) || n.isDecided)) break;
    }
  }
}

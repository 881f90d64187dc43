/**
 * An in-memory network of HeightConsensus instances with virtual time: messages are delivered
 * by a scheduler the test controls (delays, drops, partitions), timeouts fire in virtual time.
 * No sockets, no clocks: every run with the same seed is the same run.
 */

import type { Proposal } from '../../../src/chain/index.js';
import {
  activeValidators,
  applyBlock,
  type Block,
  blockHash,
  buildBlock,
  type ChainState,
  type Vote,
} from '../../../src/chain/index.js';
import { ResendSchedule } from '../../../src/consensus/driver/resend.js';
import { HeightConsensus } from '../../../src/consensus/heightConsensus.js';
import type { SignRequest } from '../../../src/consensus/signer.js';
import { type ConsensusAction, DEFAULT_TIMEOUTS } from '../../../src/consensus/types.js';
import { Equivocator } from '../../../src/faults/equivocator.js';
import { CheckedSigner } from '../../../src/privval/checkedSigner.js';
import {
  type LastSigned,
  NEVER_SIGNED,
  type PrivValidatorState,
} from '../../../src/privval/privValidatorState.js';
import { key, type TestKey } from '../../fixtures.js';

export interface Decision {
  readonly node: number;
  readonly hash: string;
  readonly round: number;
  readonly block: Block;
  readonly at: number;
}

export type Message = { kind: 'proposal'; proposal: Proposal } | { kind: 'vote'; vote: Vote };

interface Event {
  at: number;
  seq: number;
  run: () => void;
}

export interface SimOptions {
  /** Delivery delay of a message from `from` to `to` in ms, or null to drop it. */
  readonly link?: (from: number, to: number, at: number, m: Message) => number | null;
  /** Nodes that are down (never run). */
  readonly down?: readonly number[];
  /**
   * A gossip mesh: each node sends only to these peers, and passes on the first copy of every
   * message it receives to its own (as gossipsub forwards an accepted message). Without it,
   * every message goes straight to every node.
   */
  readonly peers?: (node: number) => readonly number[];
  /** Signatures node i's signer refuses besides its priv-validator rules' (recorded as 'refuse'). */
  readonly refuse?: (node: number, request: SignRequest) => boolean;
  /**
   * A Byzantine node (--byzantine equivocate): it signs a second version of each of its proposals
   * and votes (faults/equivocator.ts) and sends the first to the lower half of the other nodes,
   * the second to the upper half. Use with `peers`, so that the others pass both on.
   */
  readonly byzantine?: number;
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
    const byzantine = this.opts.byzantine;
    if (byzantine !== undefined) {
      const k = this.keys[byzantine]!;
      this.equivocator = new Equivocator(
        k.privateKey,
        (round, timestamp) => buildBlock(state, [], { timestamp, round, privateKey: k.privateKey }).block,
      );
    }
    this.makeNode = (i, kept) => {
      const k = this.keys[i]!;
      this.signed[i] ??= [];
      this.refused[i] ??= [];
      const signer = new CheckedSigner(k.privateKey, kept, {
        persist: (last) => this.signed[i]!.push(last),
        onRefusal: (reason) => this.refused[i]!.push(reason),
      });
      this.signers[i] = signer;
      const refuse = this.opts.refuse;
      return new HeightConsensus({
        chainId: state.params.chainId,
        height,
        validators: activeValidators(state),
        signer:
          refuse === undefined
            ? signer
            : {
                address: signer.address,
                resume: (h) => signer.resume(h),
                sign: (request) => {
                  if (!refuse(i, request)) return signer.sign(request);
                  this.refused[i]!.push('refuse');
                  return null;
                },
              },
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
      this.nodes.push(this.makeNode(i, NEVER_SIGNED));
      this.generation.push(0);
    });
  }

  private readonly makeNode: (i: number, kept: PrivValidatorState) => HeightConsensus;
  private readonly equivocator: Equivocator | null = null;
  private readonly signers: CheckedSigner[] = [];
  /** Every signature each node gave, in order (what its priv-validator state recorded). */
  readonly signed: LastSigned[][] = [];
  /** The reasons of the signatures each node's signer refused. */
  readonly refused: string[][] = [];
  /** Bumped when a node crashes: its pending timers and rebroadcasts die with it. */
  private readonly generation: number[] = [];
  private readonly crashed = new Set<number>();

  /** Node i stops now: it receives nothing and sends nothing, and forgets everything. */
  crash(i: number): void {
    this.crashed.add(i);
    this.generation[i]!++;
    this.seen[i] = new Set();
  }

  /**
   * Node i comes back at `at` as a fresh instance: a restarted validator that kept no votes, with
   * its priv-validator state as it was at the crash (`keepSignerState`; without the locked block:
   * `dropLockedBlock`; without the kept proposal: `keepProposal` false) or with none.
   */
  restartAt(
    i: number,
    at: number,
    keepSignerState = false,
    dropLockedBlock = false,
    keepProposal = true,
  ): void {
    const current = this.signers[i]!.current;
    const kept = !keepSignerState
      ? NEVER_SIGNED
      : {
          ...current,
          lockedBlock: dropLockedBlock ? null : current.lockedBlock,
          proposal: keepProposal ? current.proposal : null,
        };
    this.schedule(at, () => {
      this.crashed.delete(i);
      this.nodes[i] = this.makeNode(i, kept);
      this.handle(i, this.nodes[i]!.start());
      this.scheduleRebroadcast(i);
    });
  }

  /** Every node that runs has decided (a network that is all down waits for its restarts). */
  private allLiveDecided(): boolean {
    const live = this.nodes.filter((_n, i) => !this.isDown(i));
    return live.length > 0 && live.every((n) => n.isDecided);
  }

  private isDown(i: number): boolean {
    return (this.opts.down?.includes(i) ?? false) || this.crashed.has(i);
  }

  private schedule(at: number, run: () => void): void {
    this.queue.push({ at, seq: this.seq++, run });
  }

  /** Messages each node re-sent (HeightConsensus.rebroadcast), counted per message. */
  readonly resent: number[] = [];

  /** As the driver does: a node that waited a second without a step of its own re-sends its messages. */
  private scheduleRebroadcast(i: number, resend?: ResendSchedule): void {
    const generation = this.generation[i];
    const schedule = resend ?? new ResendSchedule(1000, this.nodes[i]!.progress, this.now);
    this.schedule(this.now + 250, () => {
      if (this.generation[i] !== generation) return;
      const node = this.nodes[i]!;
      if (schedule.due(node.progress, this.now)) {
        const actions = node.rebroadcast();
        this.resent[i] = (this.resent[i] ?? 0) + actions.length;
        this.handle(i, actions);
      }
      if (this.allLiveDecided()) return;
      this.scheduleRebroadcast(i, schedule);
    });
  }

  /** Every message each node sent (re-sent ones too). */
  readonly sent: Message[][] = [];

  private handle(i: number, actions: ConsensusAction[]): void {
    for (const a of actions) {
      if (a.kind === 'broadcast-proposal' || a.kind === 'broadcast-vote') {
        const m: Message =
          a.kind === 'broadcast-proposal'
            ? { kind: 'proposal', proposal: a.proposal }
            : { kind: 'vote', vote: a.vote };
        this.sent[i] ??= [];
        this.sent[i].push(m);
        if (i === this.opts.byzantine) this.equivocate(i, m);
        else this.broadcast(i, m);
      } else if (a.kind === 'schedule-timeout') {
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

  /** Per node, the gossip messages it has seen (a re-sent message is a new one: new bytes). */
  private readonly seen: Set<number>[] = [];
  private nextMessageId = 0;

  private seenBy(i: number): Set<number> {
    let seen = this.seen[i];
    if (seen === undefined) {
      seen = new Set();
      this.seen[i] = seen;
    }
    return seen;
  }

  /** The Byzantine node's own message: its first version to half the others, a second one to the rest. */
  private equivocate(from: number, m: Message): void {
    const chainId = this.state.params.chainId;
    const twin: Message =
      m.kind === 'proposal'
        ? { kind: 'proposal', proposal: this.equivocator!.twinProposal(chainId, m.proposal) }
        : { kind: 'vote', vote: this.equivocator!.twinVote(chainId, m.vote) };
    const others = this.nodes.map((_n, i) => i).filter((i) => i !== from);
    const half = Math.ceil(others.length / 2);
    this.broadcast(from, m, this.nextMessageId++, others.slice(0, half));
    this.broadcast(from, twin, this.nextMessageId++, others.slice(half));
  }

  /** Sends `m` to every node (or its mesh peers), or first only to `only`; with a mesh, each node passes the first copy on. */
  private broadcast(from: number, m: Message, id = this.nextMessageId++, only?: readonly number[]): void {
    const peers = this.opts.peers;
    if (peers) this.seenBy(from).add(id);
    (only ?? (peers ? peers(from) : this.nodes.map((_n, i) => i))).forEach((to) => {
      if (to === from || this.isDown(to)) return;
      const delay = this.opts.link ? this.opts.link(from, to, this.now, m) : 5;
      if (delay === null) return;
      this.schedule(this.now + delay, () => {
        if (this.isDown(to)) return;
        if (peers) {
          const seen = this.seenBy(to);
          if (seen.has(id)) return;
          seen.add(id);
          this.broadcast(to, m, id);
        }
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
      if (this.allLiveDecided()) break;
    }
  }
}

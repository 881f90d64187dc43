/**
 * Time under the tester's hand (issue 42): `devnet chain pause|resume|mine|block-time|time` and
 * `devnet clock NODE --skew`, the same on every runtime. Each writes the chain control into every
 * node's home (runtime/chainControl.ts) and waits until every node that answers has it in force
 * (GET /chain/control, docs/PROTOCOL.md "Chain control"): so a command returns once the chain is
 * held, mined, or at its new time, never while a node still runs on the control before. Every
 * block is still decided by the validators (docs/RULES.md, "Chain time under the control").
 */
import { now, pause as sleep } from '@chain-devnet/kit/wait';
import { loadGenesis } from '@chain-devnet/node/chain';
import type { ChainControlAnswer, RpcClient } from '@chain-devnet/node/client';
import { DevnetError } from '../base/errors.js';
import type { ChainTimeJson } from '../devnet/chainTimeShown.js';
import type { Devnet } from '../devnet/devnet.js';
import type { ChainControl, ChainControlFiles, ChainWide } from '../runtime/chainControl.js';

/** How often the nodes are asked while a command waits. */
const POLL_MS = 250;
/** A held chain is one whose heights have stood this long with the hold in force everywhere. */
const STILL_MS = 1_000;
/** How long the nodes may take to put a control in force (read within 0.5 s of a change, on a busy machine). */
const IN_FORCE_MS = 30_000;
/** A mined stretch fails when no node's height moves for this long (a stopped validator costs 3 s a slot). */
const STALL_MS = 60_000;
/** How long a node may take to answer one ask (a node busy mining on a loaded machine is slow, not gone). */
const ASK_MS = 5_000;
/**
 * How long every node may stay silent before a command gives up: one round of asks that all time
 * out is a loaded machine's moment, not a devnet that is down (a busy CI runner showed it mid-mine).
 */
const SILENT_MS = 30_000;

/**
 * What ChainTime works on: the nodes, each one's chain control (a devnet's files in the homes, the
 * simulation's nodes themselves), their RPC, the chain's epoch length. A devnet's: devnetTimeHost.
 */
export interface ChainTimeHost {
  /** The nodes' names, in order. */
  names(): readonly string[];
  /** `name` when it is a node, else an error naming the nodes. */
  nodeName(name: string): string;
  readonly control: Pick<ChainControlFiles, 'of' | 'write' | 'chainWide'>;
  client(name: string, timeoutMs: number): Promise<RpcClient>;
  epochLength(): number;
  /** Told each control asked for (a devnet's timeline, timeline/events.ts); absent: nobody. */
  readonly noted?: (msg: string, fields: Readonly<Record<string, unknown>>) => void;
}

/** A devnet's nodes, control files, RPC and genesis as ChainTime's host. */
export function devnetTimeHost(d: Devnet): ChainTimeHost {
  return {
    names: () => d.nodes.map((n) => n.name),
    nodeName: (name) => d.node(name).name,
    control: d.control,
    client: (name, timeoutMs) => d.client(name, timeoutMs),
    epochLength: () => {
      const loaded = loadGenesis(d.spec.genesis);
      if (!loaded.ok) throw new DevnetError('BAD_MANIFEST', loaded.problems.join('; '));
      return loaded.genesis.state.params.epochLength;
    },
    noted: (msg, fields) => d.events.note('chain', msg, fields),
  };
}

/** Where mining stops: a number of blocks from the held height, a height, or the first height of an epoch. */
export type MineTarget =
  | { readonly blocks: number }
  | { readonly height: number }
  | { readonly epoch: number };

export interface Mined {
  /** The heights this mining made, in order (empty when the target was already reached). */
  readonly heights: readonly number[];
  /** Whether the chain is held after it (as it was before). */
  readonly held: boolean;
}

export class ChainTime {
  private readonly files: ChainTimeHost['control'];

  /** On `d` (a Devnet, or a host: devnetTimeHost, the simulation's); every wait on kit/wait's clock. */
  constructor(
    d: Devnet | ChainTimeHost,
    private readonly silentMs = SILENT_MS,
  ) {
    this.d = 'epochLength' in d ? d : devnetTimeHost(d);
    this.files = this.d.control;
  }
  private readonly d: ChainTimeHost;

  private get names(): readonly string[] {
    return this.d.names();
  }

  /** The chain-wide control now (every node's file holds the same). */
  current(): Promise<ChainWide> {
    return this.files.chainWide(this.names);
  }

  /** `change` written into every node's file, each keeping its own skew; returns the chain-wide control now. */
  private async setAll(change: Partial<ChainWide>): Promise<ChainWide> {
    const next = { ...(await this.current()), ...change };
    for (const n of this.names)
      await this.files.write(n, { ...next, clockSkewMs: (await this.files.of(n)).clockSkewMs });
    return next;
  }

  /**
   * The answers of the nodes that answer now (a stopped node reads its file when it starts), asked
   * again while none answers, for up to `silentMs`.
   */
  private async answers(): Promise<Map<string, ChainControlAnswer>> {
    const deadline = now() + this.silentMs;
    for (;;) {
      const got = await Promise.all(
        this.names.map(async (n) => {
          try {
            return [n, await (await this.d.client(n, ASK_MS)).chainControl()] as const;
          } catch {
            return null;
          }
        }),
      );
      const m = new Map(got.filter((g) => g !== null));
      if (m.size > 0) return m;
      if (now() >= deadline)
        throw new DevnetError(
          'UNREACHABLE',
          `no node of the devnet answers GET /chain/control (asked for ${this.silentMs / 1000} s)`,
        );
      await sleep(POLL_MS);
    }
  }

  /** Waits until every answering node has `want` (and `skew` for its own) in force; the answers then. */
  private async inForce(
    want: ChainWide,
    skewOf?: (name: string) => number,
  ): Promise<Map<string, ChainControlAnswer>> {
    const deadline = now() + IN_FORCE_MS;
    for (;;) {
      const answers = await this.answers();
      const late = [...answers].filter(([n, a]) => !sameControl(a.control, want, skewOf?.(n)));
      if (late.length === 0) return answers;
      if (now() > deadline)
        throw new DevnetError(
          'TIMEOUT',
          `the chain control is not in force on ${late.map(([n]) => n).join(', ')} after ${IN_FORCE_MS / 1000} s (they run ${JSON.stringify(late[0]![1].control)})`,
        );
      await sleep(POLL_MS);
    }
  }

  /** Holds the chain; returns the height it is held at (the highest committed one). */
  async pause(): Promise<{ height: number }> {
    this.d.noted?.('chain held', {});
    const want = await this.setAll({ hold: true, mineToHeight: null });
    await this.inForce(want);
    let last = '';
    let since = now();
    for (;;) {
      const heights = [...(await this.answers()).values()].map((a) => a.height);
      const key = heights.join(',');
      if (key !== last) {
        last = key;
        since = now();
      } else if (now() - since >= STILL_MS) return { height: Math.max(...heights) };
      await sleep(POLL_MS);
    }
  }

  /** Lets the chain go on; returns the height it went on from. */
  async resume(): Promise<{ height: number }> {
    this.d.noted?.('chain resumed', {});
    const want = await this.setAll({ hold: false, mineToHeight: null });
    const answers = await this.inForce(want);
    return { height: Math.max(...[...answers.values()].map((a) => a.height)) };
  }

  /** The height a target names, from the held height `from`. */
  private targetHeight(t: MineTarget, from: number): number {
    if ('blocks' in t) return from + t.blocks;
    if ('height' in t) return t.height;
    return t.epoch * this.d.epochLength();
  }

  /**
   * Mines to the target as fast as the validators agree (held first, no wait between heights),
   * then the chain is as it was before: held or running.
   */
  async mine(target: MineTarget): Promise<Mined> {
    const wasHeld = (await this.current()).hold;
    const { height: from } = await this.pause();
    const to = this.targetHeight(target, from);
    this.d.noted?.(`chain mined to ${to}`, { from, to });
    if (to > from) {
      await this.inForce(await this.setAll({ mineToHeight: to }));
      await this.waitAll(to);
    }
    if (wasHeld) await this.inForce(await this.setAll({ mineToHeight: null }));
    else await this.resume();
    const heights = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + 1 + i);
    return { heights, held: wasHeld };
  }

  /** Waits until every answering node has committed `height`; fails when no height moves for STALL_MS. */
  private async waitAll(height: number): Promise<void> {
    let last = '';
    let movedAt = now();
    for (;;) {
      const heights = [...(await this.answers()).values()].map((a) => a.height);
      if (Math.min(...heights) >= height) return;
      if (heights.join(',') !== last) {
        last = heights.join(',');
        movedAt = now();
      }
      if (now() - movedAt > STALL_MS)
        throw new DevnetError(
          'TIMEOUT',
          `mining to ${height} stalled: heights ${heights.join(', ')} for ${STALL_MS / 1000} s`,
        );
      await sleep(POLL_MS);
    }
  }

  /** The block time of the running devnet (null: the genesis's again). */
  async blockTime(ms: number | null): Promise<void> {
    this.d.noted?.(`block time ${ms === null ? 'the genesis’s' : `${ms} ms`}`, { block_time_ms: ms });
    await this.inForce(await this.setAll({ blockTimeMs: ms }));
  }

  /**
   * Chain time moved forward by `byMs`, or to `atUnix` (seconds): under a hold (so no validator
   * checks a proposal against an older chain time), then as before. Never backwards.
   */
  async jump(to: { readonly byMs: number } | { readonly atUnix: number }): Promise<{ offsetMs: number }> {
    const before = await this.current();
    const offsetMs = 'byMs' in to ? before.timeOffsetMs + to.byMs : to.atUnix * 1000 - now();
    if (offsetMs < before.timeOffsetMs)
      throw new DevnetError(
        'BAD_FLAG',
        `chain time never moves backwards: ${'atUnix' in to ? `${to.atUnix} is before the chain's time now` : 'a jump must be forward'}`,
      );
    this.d.noted?.(`chain time ${offsetMs - before.timeOffsetMs} ms on`, { time_offset_ms: offsetMs });
    if (!before.hold) await this.pause();
    await this.inForce(await this.setAll({ timeOffsetMs: offsetMs }));
    if (!before.hold) await this.resume();
    return { offsetMs };
  }

  /** `name`'s own clock runs `skewMs` ahead (negative: behind), through the node's clock, never the machine's. */
  async skew(name: string, skewMs: number): Promise<ChainControl> {
    const node = this.d.nodeName(name);
    this.d.noted?.(`clock ${node} skewed ${skewMs} ms`, { node, clock_skew_ms: skewMs });
    const control = { ...(await this.current()), clockSkewMs: skewMs };
    await this.files.write(node, control);
    const answers = await this.answers();
    if (answers.has(node))
      await this.inForce(await this.current(), (n) =>
        n === node ? skewMs : answers.get(n)!.control.clock_skew_ms,
      );
    return control;
  }
}

/** The chain time of `d` as its nodes' files hold it (no node is asked). */
export async function chainTimeOf(d: Devnet): Promise<ChainTimeJson> {
  const names = d.nodes.map((n) => n.name);
  const wide = await d.control.chainWide(names);
  const skews = await Promise.all(names.map(async (n) => [n, (await d.control.of(n)).clockSkewMs] as const));
  return {
    hold: wide.hold,
    mine_to_height: wide.mineToHeight,
    block_time_ms: wide.blockTimeMs,
    time_offset_ms: wide.timeOffsetMs,
    clock_skew_ms: Object.fromEntries(skews),
  };
}

function sameControl(a: ChainControlAnswer['control'], want: ChainWide, skew: number | undefined): boolean {
  return (
    a.hold === want.hold &&
    a.mine_to_height === want.mineToHeight &&
    a.block_time_ms === want.blockTimeMs &&
    a.time_offset_ms === want.timeOffsetMs &&
    (skew === undefined || a.clock_skew_ms === skew)
  );
}

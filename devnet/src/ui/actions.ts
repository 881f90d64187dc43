/**
 * What a page may do to the devnet, each by the same operation the CLI runs (operations/): a
 * node operation (`devnet kill validator-2`), the whole devnet stopped and started (`devnet stop`), a transfer from a funded account (`devnet tx send`),
 * a node added (`devnet add`), the devnet saved (`devnet save`, into its saves/ folder), network conditions and
 * partitions (`devnet net`, `devnet partition`), disk faults (`devnet disk`), the chain's time (`devnet chain`,
 * `devnet clock`). One runs at a time, in arrival order, as commands typed one
 * after another would (an add rewrites devnet.json; two stops of one node would race); a bounded
 * number wait, and one more is refused. Every page sees each action start and end (activity).
 * The funded accounts' keys sign on this side; no key is ever part of an answer.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HttpError } from '@chain-devnet/kit/http';
import { parseSignedDuration } from '@chain-devnet/kit/values';
import { DevnetError } from '../base/errors.js';
import { describeChainTime } from '../devnet/chainTimeShown.js';
import { linkFieldsOf } from '../net/units.js';
import { addNode } from '../operations/add.js';
import {
  type ChainRequest,
  type ClockRequest,
  chainControls,
  chainRequestProblems,
  clockSkewProblems,
  runChainRequest,
} from '../operations/chainRequest.js';
import { ChainTime, chainTimeOf } from '../operations/chainTime.js';
import { startAll, stopAll } from '../operations/lifecycle.js';
import { clearNet, healAll, netOf, oneWay, partitionShape, setNet } from '../operations/net.js';
import { ALL_NODES, NODE_OPS, type NodeOp, nodeOp } from '../operations/nodeOp.js';
import { save } from '../operations/save.js';
import { describeOutcome, sendTx, type TxOptions } from '../operations/tx.js';
import { type DiskRequest, diskChangeOf } from '../runtime/diskRequest.js';
import { senderAccounts } from '../spec/networkSpec.js';
import type { DevnetSource } from './devnetSource.js';
import type {
  Activity,
  AddAnswer,
  AddRequest,
  ChainTimeAnswer,
  DiskAnswer,
  NetAnswer,
  NetRequest,
  NodeOpAnswer,
  PartitionRequest,
  SaveAnswer,
  TransferAnswer,
  TransferRequest,
} from './shapes.js';

/** Actions waiting behind the running one, at most. */
const MAX_WAITING = 16;

/** What the panel does to the whole devnet. */
export type DevnetOp = 'stop' | 'start';

export function isDevnetOp(op: string): op is DevnetOp {
  return op === 'stop' || op === 'start';
}

export function isNodeOp(op: string): op is NodeOp {
  return (NODE_OPS as readonly string[]).includes(op);
}

export class PanelActions {
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private nextId = 1;

  constructor(
    private readonly devnets: DevnetSource,
    private readonly report: (a: Activity) => void,
  ) {}

  /** Runs `run` after the actions before it, reporting it as `what`; `done` describes its outcome. */
  private enqueue<T>(what: string, run: () => Promise<T>, done: (r: T) => string | null): Promise<T> {
    if (this.waiting >= MAX_WAITING)
      throw new HttpError(429, `${this.waiting} actions are waiting already: try again when they are done`);
    this.waiting++;
    const id = this.nextId++;
    const at = Date.now();
    const result = this.queue.then(async () => {
      this.report({ id, at, what, status: 'running', detail: null });
      try {
        const r = await run();
        this.report({ id, at, what, status: 'done', detail: done(r) });
        return r;
      } catch (e) {
        this.report({ id, at, what, status: 'failed', detail: (e as Error).message });
        throw e;
      } finally {
        this.waiting--;
      }
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async devnet() {
    const d = await this.devnets.current();
    if (d === null) throw new DevnetError('NO_DEVNET', 'the devnet is gone (devnet down)');
    return d;
  }

  nodeOp(op: NodeOp, name: string): Promise<NodeOpAnswer> {
    // An unknown node is refused at once, not after the queue.
    this.devnets.last.node(name);
    return this.enqueue(
      `${op} ${name}`,
      async () => {
        await nodeOp(await this.devnet(), op, name);
        return { node: name, done: op };
      },
      () => null,
    );
  }

  /**
   * The whole devnet stopped or started again (`devnet stop`, `devnet start`). The panel stays up
   * through a stop (it is what offers the start) and is found running by the start.
   */
  devnetOp(op: DevnetOp): Promise<NodeOpAnswer> {
    return this.enqueue(
      `${op} the devnet`,
      async () => {
        const d = await this.devnet();
        if (op === 'stop') await stopAll(d, () => undefined, { panel: false });
        else await startAll(d, () => undefined);
        return { node: ALL_NODES, done: op };
      },
      () => null,
    );
  }

  transfer(r: TransferRequest): Promise<TransferAnswer> {
    const accounts = senderAccounts(this.devnets.last.spec).map((a) => a.name);
    if (!accounts.includes(r.from))
      throw new DevnetError(
        'BAD_FLAG',
        `from must be one of the devnet's funded accounts (${accounts.join(', ')}), got ${r.from}`,
      );
    const options: TxOptions = {
      type: 'TRANSFER',
      from: r.from,
      to: r.to,
      amount: r.amount,
      wait: true,
      ...(r.memo === undefined ? {} : { memo: r.memo }),
    };
    return this.enqueue(
      `transfer ${r.amount} from ${r.from} to ${r.to}`,
      async () => sendTx(await this.devnet(), options),
      (t) => describeOutcome(options, t),
    );
  }

  /** The whole devnet into saves/devnet-<time>.tar.gz (its nodes stopped at once, copied, started again). */
  save(): Promise<SaveAnswer> {
    return this.enqueue(
      'save the devnet',
      async () => {
        const d = await this.devnet();
        await mkdir(d.layout.savesDir, { recursive: true });
        const file = join(
          d.layout.savesDir,
          `devnet-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`,
        );
        const r = await save(d, file, () => undefined);
        return { file, heights: r.manifest.heights, files: r.manifest.files.length, elapsed_ms: r.elapsedMs };
      },
      (a) => `saved ${a.file}: devnet up --from it restores the devnet`,
    );
  }

  add(r: AddRequest): Promise<AddAnswer> {
    return this.enqueue(
      `add ${r.name ?? 'a node'}${r.stake === undefined ? '' : ` staking ${r.stake}`}`,
      async () => {
        const d = await this.devnet();
        const added = await addNode(d, {
          ...(r.name === undefined ? {} : { name: r.name }),
          ...(r.stake === undefined ? {} : { stake: r.stake }),
          progress: () => undefined,
        });
        const spec = d.node(added.name);
        return { ...added, address: spec.key.address, validator_address: spec.key.validator_address };
      },
      (a) => `${a.name} joined at height ${a.height}`,
    );
  }

  /** `devnet net NODE …` or `--clear`: the values as the CLI reads them, a bad one naming its field. */
  net(r: NetRequest): Promise<NetAnswer> {
    if (r.node !== undefined) this.devnets.last.node(r.node);
    const f = linkFieldsOf(r, 'net');
    if (!f.ok) throw new DevnetError('BAD_FLAG', f.problems.join('; '));
    const links = {
      ...(r.to === undefined ? {} : { to: r.to }),
      ...(r.direction === undefined ? {} : { direction: r.direction }),
    };
    return this.enqueue(
      r.clear
        ? `clear the network conditions of ${r.node ?? 'every node'}`
        : `network conditions on ${r.node}`,
      async () => {
        const d = await this.devnet();
        if (r.clear) await clearNet(d, { ...(r.node === undefined ? {} : { node: r.node }), ...links });
        else if (r.node === undefined)
          throw new DevnetError('BAD_FLAG', 'node is required (only clear goes without)');
        else await setNet(d, { node: r.node, ...links }, f.fields);
        return { nodes: await netOf(d) };
      },
      () => null,
    );
  }

  /** `devnet partition --shape S`, `--one-way A B` or `--heal`. */
  partition(r: PartitionRequest): Promise<NetAnswer> {
    const what = r.heal
      ? 'heal every partition'
      : r.shape !== undefined
        ? `partition: ${r.shape}`
        : `one-way: ${r.oneWay?.from} → ${r.oneWay?.to}`;
    return this.enqueue(
      what,
      async () => {
        const d = await this.devnet();
        if (r.heal) await healAll(d);
        else if (r.shape !== undefined) await partitionShape(d, r.shape);
        else if (r.oneWay !== undefined) await oneWay(d, r.oneWay.from, r.oneWay.to);
        else throw new DevnetError('BAD_FLAG', 'give shape, oneWay or heal');
        return { nodes: await netOf(d) };
      },
      () => null,
    );
  }

  /** `devnet chain …` in the scenario's words (operations/chainRequest.ts): the chain's time after it. */
  chain(r: ChainRequest): Promise<ChainTimeAnswer> {
    const problems = chainRequestProblems(r, 'chain');
    if (problems.length > 0) throw new DevnetError('BAD_FLAG', problems.join('; '));
    return this.enqueue(
      `chain ${typeof r === 'string' ? r : Object.entries(r)[0]!.join(' ')}`,
      async () => {
        const d = await this.devnet();
        const height = await runChainRequest(chainControls(new ChainTime(d)), r);
        return { ...(await chainTimeOf(d)), height };
      },
      (a) => describeChainTime(a) + (a.height === null ? '' : ` (height ${a.height})`),
    );
  }

  /** `devnet clock NODE --skew ±D`. */
  clock(r: ClockRequest): Promise<ChainTimeAnswer> {
    this.devnets.last.node(r.node);
    const problems = clockSkewProblems(r, 'clock');
    if (problems.length > 0) throw new DevnetError('BAD_FLAG', problems.join('; '));
    return this.enqueue(
      `clock ${r.node} ${r.skew}`,
      async () => {
        const d = await this.devnet();
        await new ChainTime(d).skew(r.node, parseSignedDuration(r.skew)!);
        return { ...(await chainTimeOf(d)), height: null };
      },
      (a) => describeChainTime(a),
    );
  }

  /** `devnet disk NODE …`: the node's disk faults changed, a bad value naming its field. */
  disk(r: DiskRequest): Promise<DiskAnswer> {
    this.devnets.last.node(r.node);
    const c = diskChangeOf(r, 'disk');
    if ('problems' in c) throw new DevnetError('BAD_FLAG', c.problems.join('; '));
    return this.enqueue(
      `disk faults of ${r.node}`,
      async () => {
        const f = await (await this.devnet()).disk.change(r.node, c.change);
        return {
          node: r.node,
          full: f.full,
          write_delay_ms: f.writeDelayMs,
          fsync_delay_ms: f.fsyncDelayMs,
          lose_unsynced: f.loseUnsynced,
        };
      },
      () => null,
    );
  }
}

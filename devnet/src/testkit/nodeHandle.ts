/**
 * One node of a testnet: the operations of the devnet's runtime (the same as `devnet kill|stop|
 * start|restart|pause|resume|disconnect|connect NODE` and `devnet upgrade NODE --to VERSION`),
 * its RPC client, its metrics and its log.
 * An operation the runtime refuses fails naming the step, the node and its height.
 */
import type { RpcClient, StatusAnswer } from '@chain-devnet/node/client';
import type { Devnet } from '../devnet/devnet.js';
import { type NodeOp, nodeOp } from '../operations/nodeOp.js';
import { type Upgraded, upgrade } from '../operations/upgrade.js';
import type { DiskChange, DiskFaults } from '../runtime/diskFaults.js';
import type { NodeRunState } from '../runtime/runtime.js';
import type { NetContext } from './context.js';
import { TestkitError } from './errors.js';
import type { Metrics } from './metrics.js';

/**
 * What is done to the nodes, by name: a devnet's runtime (devnetNodes), or the simulation's
 * cluster (testnet/simNodes.ts). A handle is the same over either.
 */
export interface NodeOperations {
  op(op: NodeOp, name: string): Promise<void>;
  upgrade(name: string, to: string): Promise<Upgraded>;
  versionOf(name: string): string;
  disk(name: string, change: DiskChange): Promise<DiskFaults>;
  state(name: string): Promise<NodeRunState>;
  exitCode(name: string): Promise<number | null>;
}

/** A devnet's nodes, through its runtime and its operations. */
export function devnetNodes(devnet: Devnet): NodeOperations {
  return {
    op: (op, name) => nodeOp(devnet, op, name),
    upgrade: async (name, to) => (await upgrade(devnet, [name], to, () => undefined))[0]!,
    versionOf: (name) => devnet.versionOf(name),
    disk: (name, change) => devnet.disk.change(name, change),
    state: (name) => devnet.runtime.node(name).state(),
    exitCode: (name) => devnet.runtime.node(name).exitCode(),
  };
}

export class NodeHandle {
  constructor(
    readonly name: string,
    private readonly nodes: NodeOperations,
    private readonly net: NetContext,
  ) {}

  /** The one RPC client of this node. */
  get rpc(): RpcClient {
    return this.net.rpc(this.name);
  }

  /** Runs one of the runtime's operations on this node. */
  async op(op: NodeOp): Promise<void> {
    await this.failsAs(`devnet ${op} ${this.name}`, () => this.nodes.op(op, this.name));
  }

  /**
   * Restarted on another version (checkout, git:REF, path:DIR, image:NAME) with its data, as
   * `devnet upgrade NODE --to VERSION`; returns once it is back in consensus. A rolling upgrade
   * is this on each node in turn.
   */
  async upgrade(to: string): Promise<Upgraded> {
    return this.failsAs(`devnet upgrade ${this.name} --to ${to}`, () => this.nodes.upgrade(this.name, to));
  }

  /** The version the devnet runs it on (pinned: a git ref as its commit). */
  version(): string {
    return this.nodes.versionOf(this.name);
  }

  private async failsAs<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof TestkitError) throw e;
      throw await this.net.failureNow(this.name, `${what} to succeed`, (e as Error).message, e);
    }
  }

  /** SIGKILL (the container killed): a crash. */
  kill(): Promise<void> {
    return this.op('kill');
  }

  /** SIGTERM, SIGKILL after a grace period. */
  stop(): Promise<void> {
    return this.op('stop');
  }

  start(): Promise<void> {
    return this.op('start');
  }

  restart(): Promise<void> {
    return this.op('restart');
  }

  /** SIGSTOP (the engine's pause). */
  pause(): Promise<void> {
    return this.op('pause');
  }

  resume(): Promise<void> {
    return this.op('resume');
  }

  /** Cut off from every other node; its RPC stays reachable. */
  disconnect(): Promise<void> {
    return this.op('disconnect');
  }

  connect(): Promise<void> {
    return this.op('connect');
  }

  /** Its disk faults changed as `devnet disk NODE …` does; returns those now in force. */
  disk(change: DiskChange): Promise<DiskFaults> {
    const what = `devnet disk ${this.name} ${JSON.stringify(change)}`;
    return this.failsAs(what, () => this.nodes.disk(this.name, change));
  }

  /** Its disk full: every write fails with ENOSPC (it stops committing and signing). */
  diskFull(): Promise<DiskFaults> {
    return this.disk({ full: true });
  }

  /** Its disk freed again. */
  diskFree(): Promise<DiskFaults> {
    return this.disk({ full: false });
  }

  /** Each write and each fsync of it slowed by these delays (0: none). */
  slowDisk(o: { writeMs?: number; fsyncMs?: number }): Promise<DiskFaults> {
    return this.disk({ writeDelayMs: o.writeMs ?? 0, fsyncDelayMs: o.fsyncMs ?? 0 });
  }

  /** Its writes without an fsync kept in memory (on) until the next synced one: a kill loses them. */
  loseUnsynced(on = true): Promise<DiskFaults> {
    return this.disk({ loseUnsynced: on });
  }

  /** Every disk fault of it dropped. */
  clearDisk(): Promise<DiskFaults> {
    return this.disk({ clear: true });
  }

  /** running, paused, stopped or absent, as the runtime sees it. */
  state(): Promise<NodeRunState> {
    return this.nodes.state(this.name);
  }

  /**
   * How its chain-node last ended, once it is stopped (null while it runs, or when the runtime
   * does not know): 3 is the halt at an upgrade plan's height (UPGRADE_HALT_EXIT_CODE).
   */
  exitCode(): Promise<number | null> {
    return this.nodes.exitCode(this.name);
  }

  status(): Promise<StatusAnswer> {
    return this.rpc.status();
  }

  async height(): Promise<number> {
    return (await this.status()).height;
  }

  metrics(): Promise<Metrics> {
    return this.net.chain.metrics(this.name);
  }

  /** Its log lines, all or after a mark (logMark()). */
  async log(o: { since?: number } = {}): Promise<string[]> {
    return (await this.net.logLines(this.name)).slice(o.since ?? 0);
  }

  /** How far its log went now: log({since}) then gives only later lines. */
  async logMark(): Promise<number> {
    return (await this.net.logLines(this.name)).length;
  }
}

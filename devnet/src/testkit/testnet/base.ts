/**
 * What a testnet is over whatever runs its nodes: the shared views of the chain (NetContext),
 * the expectations, the node handles, the steps that name failures, the bounds, the loads and the
 * invariants. Testnet (a devnet on a runtime) and SimTestnet (the simulation) are each this plus
 * how their nodes are made, partitioned, sent transactions and torn down, so that a test written
 * against TestnetBase runs on both unchanged.
 */
import type { ChainParams, TxType } from '@chain-devnet/node/chain';
import type { AddResult } from '../../operations/add.js';
import { NODE_OPS, type NodeOp } from '../../operations/nodeOp.js';
import type { TxOutcome } from '../../operations/tx.js';
import type { UpgradePlanResult } from '../../operations/upgradePlan.js';
import type { NodeRunState } from '../../runtime/runtime.js';
import type { TestRuntime, Within } from '../bounds.js';
import type { Chain } from '../chain.js';
import type { TimeControl } from '../chainTime.js';
import type { NetContext } from '../context.js';
import { StepError, TestkitError, TestkitUsageError } from '../errors.js';
import { Expectations } from '../expect/index.js';
import { checkInvariants, type InvariantOptions, type InvariantReport } from '../invariants/index.js';
import type { Ledger } from '../ledger.js';
import { Load } from '../load/load.js';
import type { LoadOptions } from '../load/options.js';
import type { LogMarks } from '../logs.js';
import type { ValidatorModel } from '../model/validatorModel.js';
import type { DevAccount } from '../net.js';
import { NodeHandle, type NodeOperations } from '../nodeHandle.js';
import type { Txs } from '../wallet.js';
import type { Conditions } from './conditions.js';
import type { DevnetTx, StopOptions, TestnetAdd, TestnetPlan } from './options.js';

/** What a testnet says of each node's run (the devnet's NodeStatus has more). */
export interface NodeRunView {
  readonly name: string;
  readonly state: NodeRunState;
  readonly disconnected: boolean;
}

export abstract class TestnetBase {
  readonly expect: Expectations;
  /** Set by a failure the testkit saw, or by the caller (markFailed): the logs are kept at stop. */
  failed = false;
  protected loads = new Set<Load>();
  private stopping: Promise<void> | null = null;

  protected constructor(
    readonly net: NetContext,
    private readonly nodeOps: NodeOperations,
    private readonly logLine: (line: string) => void,
    protected readonly invariants: InvariantOptions,
  ) {
    this.expect = new Expectations(net);
  }

  abstract get runtime(): TestRuntime;
  /** Latency, jitter, loss, rate, zones, one-way partitions and partition shapes (conditions.ts). */
  abstract readonly conditions: Conditions;
  /** The chain's time under the test's hand: pause, resume, mine, block time, chain time, skew (chainTime.ts). */
  abstract readonly time: TimeControl;
  /** A partition into groups of node names; the nodes named in no group form one more group. */
  abstract partition(groups: readonly (readonly string[])[]): Promise<void>;
  /** Ends a partition: every node talks to every other again (a node disconnected stays so). */
  abstract heal(): Promise<void>;
  /** `devnet tx`: signed with an account's, a node's (validator) or a hex key; waits unless wait is false. */
  abstract tx(type: TxType, o: DevnetTx): Promise<TxOutcome>;
  /**
   * `devnet add`: a node joins and syncs (with stake: funded from account-0, sends STAKE; with
   * stateSync: from a verified snapshot; with version: on that chain-node); net.node(name).
   */
  abstract add(o?: TestnetAdd): Promise<AddResult>;
  /** `devnet upgrade plan` (cancel: true, `… cancel`): validators sign until scheduled (cancelled). */
  abstract upgradePlan(o: TestnetPlan): Promise<UpgradePlanResult>;
  /** The run's end (stop runs it once): loads, invariants, the logs of a failure, the teardown. */
  protected abstract end(o: StopOptions): Promise<void>;
  /** Every node: whether it runs, and whether it is cut off from every peer. */
  abstract status(): Promise<readonly NodeRunView[]>;
  /** Whether a partition (or a one-way cut) made here is in force. */
  abstract get isPartitioned(): boolean;

  get params(): ChainParams {
    return this.net.params;
  }

  get chain(): Chain {
    return this.net.chain;
  }

  get model(): ValidatorModel {
    return this.net.model;
  }

  get txs(): Txs {
    return this.net.txs;
  }

  get ledger(): Ledger {
    return this.net.ledger;
  }

  get accounts(): readonly DevAccount[] {
    return this.net.accounts;
  }

  log(line: string): void {
    this.logLine(line);
  }

  names(): string[] {
    return this.net.names();
  }

  node(name: string): NodeHandle {
    this.net.rpc(name); // an unknown name fails here
    return new NodeHandle(name, this.nodeOps, this.net);
  }

  nodes(): NodeHandle[] {
    return this.names().map((n) => this.node(n));
  }

  /** A node operation as data (a scenario runner's fault step): {op: 'kill', node: 'validator-2'}. */
  fault(f: { readonly op: NodeOp; readonly node: string }): Promise<void> {
    if (!(NODE_OPS as readonly string[]).includes(f.op))
      throw new TestkitUsageError(`a node operation is one of ${NODE_OPS.join(', ')}, got ${f.op}`);
    return this.node(f.node).op(f.op);
  }

  /** Sets the name the following failures carry. */
  step(label: string): void;
  /** Runs `f` as the step `label`: a failure inside names it (a TestkitError, or a StepError around another error). */
  step<T>(label: string, f: () => Promise<T>): Promise<T>;
  step<T>(label: string, f?: () => Promise<T>): undefined | Promise<T> {
    this.net.step = label;
    if (f === undefined) return;
    return f().catch((e: unknown) => {
      this.failed = true;
      throw e instanceof TestkitError || e instanceof StepError ? e : new StepError(label, e);
    });
  }

  /** The bound of a wait, in ms. */
  bound(w: Within): number {
    return this.net.bound(w);
  }

  /** The bound of "within `blocks` blocks", in ms. */
  within(blocks: number): number {
    return this.net.within(blocks);
  }

  /** The highest height once every node is synced (at most one block apart), within 10 blocks. */
  synced(nodes?: readonly string[]): Promise<number> {
    return this.expect.synced(nodes === undefined ? {} : { nodes });
  }

  /** Waits until every named node has `k` more blocks than the highest has now; that height. */
  waitBlocks(k: number, nodes?: readonly string[]): Promise<number> {
    return this.chain.waitBlocks(k, nodes);
  }

  /** Starts a load in the background (funded accounts first); stop() or done() gives its report. */
  async load(o: LoadOptions): Promise<Load> {
    const l = await Load.start(this.net, o);
    this.loads.add(l);
    return l;
  }

  /** How far every node's log went now (for log expectations "since"). */
  async logMarks(): Promise<LogMarks> {
    const out: Record<string, number> = {};
    for (const n of this.names()) out[n] = (await this.net.logLines(n).catch(() => [])).length;
    return out;
  }

  /** The next epoch boundary at or after `h`. */
  boundaryFrom(h: number): number {
    const L = this.params.epochLength;
    return Math.ceil(h / L) * L;
  }

  /** Node names whose validator (by name) has one of `statuses` in the model now. */
  validatorNodes(statuses: readonly string[] = ['ACTIVE']): string[] {
    const vs = [...this.model.at(this.model.height).values()];
    return this.names().filter((n) => vs.some((v) => v.name === n && statuses.includes(v.status)));
  }

  /** Marks the run failed: its logs are kept at stop. */
  markFailed(): void {
    this.failed = true;
  }

  /** The invariants over the whole history of every node (also run by stop). */
  async checkInvariants(o: InvariantOptions = this.invariants): Promise<InvariantReport> {
    const r = await checkInvariants(this.net, o).catch((e: unknown) => {
      this.failed = true;
      throw e;
    });
    for (const line of r.lines) this.log(line);
    if (r.silent.length > 0) this.log(`not checked (not answering): ${r.silent.join(', ')}`);
    return r;
  }

  /**
   * Ends the run: loads stopped, the invariants checked (unless it failed), the logs kept if it
   * failed (or an invariant did not hold), and what this testkit started torn down. Throws the
   * invariants' failure after the teardown.
   */
  stop(o: StopOptions = {}): Promise<void> {
    // Once: a signal during a stop waits for that stop.
    this.stopping ??= this.end(o);
    return this.stopping;
  }

  /** The loads stopped, the invariants checked unless the run failed: the failure to throw, or null. */
  protected async endLoadsAndCheck(o: StopOptions): Promise<unknown> {
    if (o.failed) this.failed = true;
    await Promise.allSettled([...this.loads].map((l) => l.stop()));
    if (this.failed || o.invariants === false) return null;
    return this.checkInvariants().then(
      () => null,
      (e: unknown) => e,
    );
  }
}

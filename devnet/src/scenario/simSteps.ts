/**
 * A scenario's steps on the simulation (`devnet test --runtime sim`): each step kind the
 * simulation has, as calls on a SimCluster in virtual time. A trigger, a wait or an expectation
 * runs the virtual clock until what it waits for holds, within its bound (the testkit's formula
 * in blocks, on virtual time: no TESTKIT_SLOWDOWN, the machine's speed is not in it). The kinds
 * the simulation does not have yet are refused when the file is checked (`simProblems`), so a
 * file never half runs.
 */

import { parseDuration, parseSignedDuration } from '@chain-devnet/kit/values';
import type { TxType } from '@chain-devnet/node/chain';
import type { SimAction, SimCluster } from '@chain-devnet/node/sim';
import { healAll } from '../operations/net.js';
import { NODE_OPS, type NodeOp } from '../operations/nodeOp.js';
import { sendTxOn, type TxOutcome } from '../operations/tx.js';
import { signUpgradeOn } from '../operations/upgradePlan.js';
import { unscaledBoundMs, type Within } from '../testkit/bounds.js';
import { TimeControl } from '../testkit/chainTime.js';
import type { NetContext } from '../testkit/context.js';
import { Expectations } from '../testkit/expect/index.js';
import { Conditions } from '../testkit/testnet/conditions.js';
import type { DevnetTx } from '../testkit/testnet/options.js';
import { addSimNode } from '../testkit/testnet/simAdd.js';
import type { SimNet } from '../testkit/testnet/simNet.js';
import { simContext, simNodes, simTxNetwork } from '../testkit/testnet/simNodes.js';
import { simTimeHost } from '../testkit/testnet/simTime.js';
import { CHECKOUT_VERSION } from '../versions/source.js';
import { diskChangeOf } from './diskSteps.js';
import { type NetSteps, netStep } from './netSteps.js';
import type { Produced } from './refs.js';
import type { Scenario, Step, Trigger } from './scenario.js';
import type { StepKind } from './schema.js';
import { timeStep } from './timeSteps.js';
import { txStep } from './txStep.js';

/** The step kinds a scenario may use on the simulation. */
export const SIM_STEP_KINDS: readonly string[] = [
  ...NODE_OPS,
  'tx',
  'partition',
  'heal',
  'oneWay',
  'net',
  'zones',
  'partitionShape',
  'disk',
  'clock',
  'chain',
  'add',
  'upgradePlan',
  'upgrade',
  'wait',
  'expect',
];

/** The steps of network conditions, run as on a devnet (netSteps.ts) over the simulation's SimNet. */
const NET_KINDS: readonly string[] = ['net', 'zones', 'oneWay', 'partitionShape'];

/** The expectations the simulation checks: its own, and the chain's through the nodes' RPC. */
const SIM_EXPECTATIONS = ['height', 'synced', 'stalled'];
const CHAIN_EXPECTATIONS = ['tx', 'account', 'validator', 'metric', 'log', 'noLog'];

/** What in `s` the simulation cannot run yet, each naming its field; empty: it runs. */
export function simProblems(s: Scenario): string[] {
  const problems: string[] = [];
  const load = s.file.load;
  if (load !== undefined) {
    if (Array.isArray(load.accounts))
      problems.push(
        "load.accounts: the simulation's load sends from the network's own funded accounts: a count, not names",
      );
    if (load.fund !== undefined)
      problems.push(
        "load.fund: the simulation's load sends from the network's funded accounts, not funded ones",
      );
    if (load.nodes !== undefined)
      problems.push('load.nodes: not simulated yet (the load sends to every node that is up)');
    if ((load.mix?.UNDELEGATE ?? 0) > 0)
      problems.push('load.mix.UNDELEGATE: not simulated yet (it sends TRANSFER and DELEGATE)');
  }
  s.steps.forEach(({ kind, step }, i) => {
    if (!SIM_STEP_KINDS.includes(kind))
      problems.push(
        `steps[${i}].${kind}: this step does not run on the simulation yet (it has ${SIM_STEP_KINDS.join(', ')})`,
      );
    if (kind === 'upgrade' && step.upgrade?.to !== CHECKOUT_VERSION)
      problems.push(
        `steps[${i}].upgrade.to: only ${CHECKOUT_VERSION} is simulated (the simulation runs this checkout's code only): run ${step.upgrade?.to} on a devnet's runtime`,
      );
    if (kind === 'add' && step.add?.version !== undefined)
      problems.push(
        `steps[${i}].add.version: not simulated (the simulation runs this checkout's code only): run it on a devnet's runtime`,
      );
    if (kind === 'expect') {
      const assertion = Object.keys(step.expect ?? {})[0] ?? '';
      if (!SIM_EXPECTATIONS.includes(assertion) && !CHAIN_EXPECTATIONS.includes(assertion))
        problems.push(
          `steps[${i}].expect.${assertion}: not checked on the simulation yet (it checks ${[...SIM_EXPECTATIONS, ...CHAIN_EXPECTATIONS].join(', ')})`,
        );
    }
  });
  return problems;
}

/** A step's failure on the simulation: what was expected and what was found. */
export class SimStepFailure extends Error {}

export class SimSteps {
  /** The testkit's view of the cluster: its tx and the chain's expectations go through the nodes' RPC. */
  private readonly net: NetContext;
  private readonly expectations: Expectations;
  /** The network conditions as a devnet keeps them (net, zones, one-way cuts, shapes, heal). */
  private readonly conditions: Conditions;
  /** The chain's time as on a devnet (chain steps: pause, resume, mine, block time, chain time). */
  private readonly time: TimeControl;

  constructor(
    private readonly cluster: SimCluster,
    private readonly simNet: SimNet,
    /** Virtual ms after the network's start when the steps began (a trigger's time counts from it). */
    private readonly began: number,
  ) {
    this.net = simContext(cluster);
    this.expectations = new Expectations(this.net);
    this.conditions = new Conditions(simNet, () => undefined);
    this.time = new TimeControl(simTimeHost(cluster, this.net.params.epochLength), this.net);
  }

  private boundMs(w: Within): number {
    return unscaledBoundMs(w, { blockTimeMs: this.cluster.blockTimeMs, nodes: this.cluster.names.length });
  }

  private nodesOf(names: readonly string[] | undefined): string[] {
    for (const n of names ?? []) this.cluster.node(n); // an unknown node fails before any wait
    return [...(names ?? this.cluster.names)];
  }

  private heightsText(names: readonly string[]): string {
    return names.map((n) => `${n} ${this.cluster.node(n).height}`).join(', ');
  }

  async trigger(at: Trigger): Promise<void> {
    if ('time' in at) return this.cluster.runTo(this.began + (parseDuration(at.time) ?? 0));
    const first = this.cluster.head;
    const held = await this.cluster.runUntil(
      () => this.cluster.head >= at.height,
      this.boundMs({ blocks: Math.max(0, at.height - first) + 5 }),
    );
    if (!held)
      throw new SimStepFailure(
        `expected a node at height ${at.height} (the step's trigger) within ${at.height - first + 5} blocks; the highest node at ${this.cluster.head}`,
      );
  }

  /**
   * Runs one step's kind; what it produced for later steps' references: the highest height when
   * it ended, and a tx step's hash and sender (as on the other runtimes, step.ts). A tx step and
   * the chain's expectations wait on the waits' clock, which the run has put on virtual time.
   */
  async execute(kind: StepKind, step: Step): Promise<Produced> {
    const actions = this.actionsOf(kind, step);
    if (actions !== null) for (const a of actions) await this.cluster.apply(a);
    else if (NET_KINDS.includes(kind))
      await netStep({ conditions: this.conditions }, kind as keyof NetSteps, step);
    else if (kind === 'heal') await healAll(this.simNet);
    else if (kind === 'chain')
      return { height: (await timeStep({ time: this.time }, 'chain', step)) ?? this.cluster.head };
    else if (kind === 'upgradePlan') return this.upgradePlan(step.upgradePlan!);
    else if (kind === 'upgrade') {
      const { node, to } = step.upgrade!;
      for (const name of node === 'all' ? this.cluster.names : [node])
        await simNodes(this.cluster).upgrade(name, to);
    } else if (kind === 'add') {
      const parts = { cluster: this.cluster, simNet: this.simNet, net: this.net, log: () => undefined };
      const r = await addSimNode(parts, step.add ?? {});
      return { node: r.name, height: r.height };
    } else if (kind === 'disk') await this.disk(step.disk!);
    else if (kind === 'wait') await this.wait(step.wait!);
    else if (kind === 'tx') {
      const r = await txStep({ tx: (type, o) => this.send(type, o), net: this.net }, step.tx!);
      return { hash: r.tx_hash, from: r.from, height: r.receipt?.block_height ?? this.cluster.head };
    } else await this.expect(step.expect!);
    return { height: this.cluster.head };
  }

  /** The validators sign the plan (or its cancel) as on a devnet; a step failure when it is not done. */
  private async upgradePlan(p: NonNullable<Step['upgradePlan']>): Promise<Produced> {
    const r = await signUpgradeOn(simTxNetwork(this.cluster, this.net), { ...p, cancel: p.cancel ?? false });
    this.net.ledger.recordPlan(r);
    if (!r.done)
      throw new SimStepFailure(
        `expected the plan ${r.target_version} at ${r.upgrade_height} ${p.cancel ? 'cancelled' : 'scheduled'}; signed by ${r.signed_by.join(', ') || 'nobody'} and not yet`,
      );
    return { height: r.upgrade_height };
  }

  /** A disk step: the node's faults changed as `devnet disk` changes them (checked when the file was). */
  private async disk(s: NonNullable<Step['disk']>): Promise<void> {
    const r = diskChangeOf(s, 'disk');
    if ('problems' in r) throw new SimStepFailure(r.problems.join('; '));
    await simNodes(this.cluster).disk(s.node, r.change);
  }

  private async send(type: TxType, o: DevnetTx): Promise<TxOutcome> {
    const r = await sendTxOn(simTxNetwork(this.cluster, this.net), { ...o, type, wait: o.wait ?? true });
    if (r.receipt?.status === 'confirmed')
      this.net.ledger.record(r.tx_hash, r.receipt.block_height!, `${type} from ${o.from}`);
    return r;
  }

  /** A fault step as the simulation's actions; null for a wait or an expectation. */
  private actionsOf(kind: StepKind, step: Step): SimAction[] | null {
    const everyNode = (k: SimAction['kind']) =>
      this.cluster.names.map((node) => ({ kind: k, node }) as SimAction);
    const node = (step[kind as NodeOp] as { node: string } | undefined)?.node;
    // A string: StepKind's type does not carry the node operations (their schema is built from NODE_OPS).
    switch (kind as string) {
      case 'kill':
      case 'stop':
        return node === 'all' ? everyNode('crash') : [{ kind: 'crash', node: node! }];
      case 'start':
        return node === 'all' ? everyNode('restart') : [{ kind: 'restart', node: node! }];
      case 'restart':
        return [
          { kind: 'crash', node: node! },
          { kind: 'restart', node: node! },
        ];
      case 'pause':
        return [{ kind: 'pause', node: node! }];
      case 'resume':
        return [{ kind: 'unpause', node: node! }];
      case 'disconnect':
        return [{ kind: 'disconnect', node: node! }];
      case 'connect':
        return [{ kind: 'connect', node: node! }];
      case 'partition':
        return [{ kind: 'split', groups: step.partition! }];
      case 'clock':
        return [{ kind: 'skew', node: step.clock!.node, ms: parseSignedDuration(step.clock!.skew) ?? 0 }];
      default:
        return null;
    }
  }

  private async wait(w: NonNullable<Step['wait']>): Promise<void> {
    if ('seconds' in w) return this.cluster.runTo(this.cluster.elapsedMs + w.seconds * 1000);
    const names = this.nodesOf(w.nodes);
    const target = Math.max(...names.map((n) => this.cluster.node(n).height)) + w.blocks;
    await this.until(names, target, { blocks: w.blocks }, `height ${target} (${w.blocks} blocks on)`);
  }

  private async until(names: readonly string[], target: number, within: Within, what: string): Promise<void> {
    if (!(await this.cluster.runUntil(() => this.cluster.allAt(target, names), this.boundMs(within))))
      throw new SimStepFailure(`expected ${names.join(', ')} at ${what}; found ${this.heightsText(names)}`);
  }

  private async expect(e: NonNullable<Step['expect']>): Promise<void> {
    const [assertion, arg] = Object.entries(e)[0]! as [string, Record<string, unknown>];
    if (CHAIN_EXPECTATIONS.includes(assertion)) {
      const call = this.expectations[assertion as keyof Expectations] as (a: unknown) => Promise<unknown>;
      await call.call(this.expectations, arg);
      return;
    }
    const names = this.nodesOf(arg.nodes as string[] | undefined);
    if (assertion === 'height') {
      const atLeast = arg.atLeast as number;
      const within = (arg.within as Within | undefined) ?? {
        blocks: Math.max(0, atLeast - this.cluster.head) + 5,
      };
      return this.until(names, atLeast, within, `height ${atLeast} or above`);
    }
    if (assertion === 'synced')
      return this.synced(names, (arg.maxLag as number | undefined) ?? 1, arg.within as Within | undefined);
    return this.stalled(names, arg.seconds as number, arg.within as Within | undefined);
  }

  private async synced(
    names: readonly string[],
    lag: number,
    within: Within = { blocks: 10 },
  ): Promise<void> {
    const synced = () => {
      if (!this.cluster.allAt(0, names)) return false;
      const hs = names.map((n) => this.cluster.node(n).height);
      return Math.max(...hs) - Math.min(...hs) <= lag;
    };
    if (!(await this.cluster.runUntil(synced, this.boundMs(within))))
      throw new SimStepFailure(
        `expected ${names.join(', ')} synced (at most ${lag} behind); found ${this.heightsText(names)}`,
      );
  }

  /** No named node's height moves for `seconds`, the window starting again on a move until `within`'s bound. */
  private async stalled(names: readonly string[], seconds: number, within?: Within): Promise<void> {
    const settleBy = this.cluster.elapsedMs + (within === undefined ? 0 : this.boundMs(within));
    for (;;) {
      const held = names.map((n) => this.cluster.node(n).height);
      const moved = () => names.some((n, i) => this.cluster.node(n).height !== held[i]);
      const windowFrom = this.cluster.elapsedMs;
      if (!(await this.cluster.runUntil(moved, seconds * 1000))) return;
      if (this.cluster.elapsedMs > settleBy)
        throw new SimStepFailure(
          `expected no new block on ${names.join(', ')} for ${seconds} s; a height moved ${((this.cluster.elapsedMs - windowFrom) / 1000).toFixed(1)} s into the window: ${this.heightsText(names)}`,
        );
    }
  }
}

/**
 * One scenario step on its testnet: its references to earlier steps' results resolved (refs.ts),
 * its trigger waited for, then its kind run as one testkit call with the step's plain data; what
 * it produced is kept for the steps after it. The run around the steps is run.ts.
 */
import { dirname, resolve } from 'node:path';
import { parseDuration } from '@chain-devnet/kit/values';
import { pause } from '@chain-devnet/kit/wait';
import { ALL_NODES, NODE_OPS, type NodeOp } from '../operations/nodeOp.js';
import type { Expectations } from '../testkit/expect/index.js';
import type { Testnet } from '../testkit/testnet/testnet.js';
import { diskStep } from './diskSteps.js';
import { expectTask, marketStep, type TaskExpectation } from './marketSteps.js';
import { netStep } from './netSteps.js';
import { type Produced, producerOf, resolveReferences } from './refs.js';
import type { Scenario, Step, Trigger } from './scenario.js';
import type { StepKind } from './schema.js';
import { timeStep } from './timeSteps.js';
import { txStep } from './txStep.js';

/** What the steps so far produced, by the name their `as` gave it. */
export type StepResults = Map<string, { kind: string; produced: Produced }>;

/** Waits for a step's trigger: the highest answering node at a height, or a time since the steps began. */
async function waitTrigger(net: Testnet, at: Trigger, began: number): Promise<void> {
  if ('time' in at) {
    const ms = began + (parseDuration(at.time) ?? 0) - Date.now();
    if (ms > 0) await pause(ms);
    return;
  }
  const first = await highest(net);
  const deadline = Date.now() + net.within(Math.max(0, at.height - first) + 5);
  let top = first;
  while (top < at.height) {
    if (Date.now() > deadline)
      throw await net.net.failureNow(
        net.names()[0]!,
        `a node at height ${at.height} (the step's trigger) within ${at.height - first + 5} blocks`,
        `the highest node at ${top}`,
      );
    await pause(100);
    top = await highest(net);
  }
}

/** The highest height a node answers now (0 when none does). */
async function highest(net: Testnet): Promise<number> {
  const hs = await Promise.all(net.names().map((n) => net.net.heightOf(n)));
  return Math.max(0, ...hs.filter((h): h is number => h !== null));
}

/**
 * Runs one step (its references resolved); what it produced, for the steps after it (refs.ts).
 * `dir`: the scenario file's folder (a `save` path is relative to it).
 */
async function execute(net: Testnet, kind: StepKind, step: Step, dir: string): Promise<Produced> {
  if ((NODE_OPS as readonly string[]).includes(kind)) {
    const op = kind as NodeOp;
    const { node } = step[op]!;
    // `stop: {node: all}`, `start: {node: all}`: the whole devnet (docs/SCENARIOS.md).
    if (node === ALL_NODES && op === 'stop') await net.stopAll();
    else if (node === ALL_NODES && op === 'start') await net.startAll();
    else await net.fault({ op, node });
    return { height: await highest(net) };
  }
  switch (kind) {
    case 'partition':
      await net.partition(step.partition!);
      break;
    case 'heal':
      await net.heal();
      break;
    case 'net':
    case 'zones':
    case 'oneWay':
    case 'partitionShape':
      await netStep(net, kind, step);
      break;
    case 'chain':
    case 'clock':
      return { height: (await timeStep(net, kind, step)) ?? (await highest(net)) };
    case 'disk':
      await diskStep(net, step.disk!);
      break;
    case 'upgrade': {
      const { node, to } = step.upgrade!;
      for (const name of node === ALL_NODES ? net.names() : [node]) await net.node(name).upgrade(to);
      break;
    }
    case 'add': {
      const r = await net.add(step.add ?? {});
      return { node: r.name, height: r.height };
    }
    case 'tx': {
      const r = await txStep(net, step.tx!);
      return { hash: r.tx_hash, from: r.from, height: r.receipt?.block_height ?? (await highest(net)) };
    }
    case 'upgradePlan': {
      const r = await net.upgradePlan(step.upgradePlan!);
      if (!r.done)
        throw await net.net.failureNow(
          net.names()[0]!,
          `the plan ${r.target_version} at ${r.upgrade_height} ${step.upgradePlan!.cancel ? 'cancelled' : 'scheduled'}`,
          `signed by ${r.signed_by.join(', ') || 'nobody'} and not yet`,
        );
      return { height: r.upgrade_height };
    }
    case 'market':
      return marketStep(net, step.market!);
    case 'save': {
      const r = await net.save(resolve(dir, step.save!));
      return { height: Math.min(...Object.values(r.manifest.heights).map((h) => h ?? 0)) };
    }
    case 'wait': {
      const w = step.wait!;
      if ('seconds' in w) await pause(w.seconds * 1000);
      else await net.waitBlocks(w.blocks, w.nodes);
      break;
    }
    case 'expect': {
      const [assertion, arg] = Object.entries(step.expect!)[0]!;
      // The market's task is not the chain's: asked of the market (marketSteps.ts).
      if (assertion === 'task') return expectTask(net, arg as unknown as TaskExpectation);
      const call = net.expect[assertion as keyof Expectations] as (a: unknown) => Promise<unknown>;
      await call.call(net.expect, arg);
      break;
    }
  }
  return { height: await highest(net) };
}

/**
 * Runs one step of `s` as written: its references resolved against `results`, its trigger (a
 * height, or a time since `began`, when the steps began) waited for, its kind executed; what it
 * produced goes into `results` under its `as`.
 */
export async function runStep(
  net: Testnet,
  s: Scenario,
  { kind, step: asWritten }: Scenario['steps'][number],
  results: StepResults,
  began: number,
): Promise<void> {
  // The parts the check looked for references in: the kind's data and the trigger (a
  // name is the label, as written).
  const { [kind]: body, at: trigger } = resolveReferences(
    { [kind]: asWritten[kind], at: asWritten.at },
    results,
  );
  const step: Step = {
    ...asWritten,
    [kind]: body,
    ...(trigger === undefined ? {} : { at: trigger }),
  };
  if (step.at !== undefined) await waitTrigger(net, step.at, began);
  const produced = await execute(net, kind, step, dirname(resolve(s.source)));
  if (step.as !== undefined) results.set(step.as, { kind: producerOf(kind, step[kind]), produced });
}

/**
 * A simulated fault schedule as a scenario file a person can read and keep as a regression test:
 * each fault a step at its virtual time, then what the seed run does after its last fault (every
 * cut healed, every node let go and started again, three blocks more, the run's height), so that
 * `devnet test FILE --runtime sim --seed S` drives the SimCluster through the same calls as the
 * seed run did, and fails the same way.
 */
import type { SimFault, SimOptions } from '@chain-devnet/node/sim';
import { noDiskFault } from '@chain-devnet/node/testnet';
import type { ScenarioFile, Step } from './scenario.js';

const at = (ms: number) => ({ time: `${ms}ms` });

/** One fault as steps (a one-way partition: a oneWay step for each cut). */
function stepsOf(f: SimFault, names: readonly string[]): Step[] {
  switch (f.kind) {
    case 'crash':
      return [{ kill: { node: f.node } }];
    case 'restart':
      return [{ start: { node: f.node } }];
    case 'pause':
      return [{ pause: { node: f.node } }];
    case 'unpause':
      return [{ resume: { node: f.node } }];
    case 'disconnect':
      return [{ disconnect: { node: f.node } }];
    case 'connect':
      return [{ connect: { node: f.node } }];
    case 'skew':
      return [{ clock: { node: f.node, skew: `${f.ms >= 0 ? '+' : '-'}${Math.abs(f.ms)}ms` } }];
    case 'heal':
      return [{ heal: {} }];
    case 'oneWay':
      return [{ oneWay: { from: f.from, to: f.to } }];
    case 'split':
      return [{ partition: f.groups.map((g) => [...g]) }];
    case 'partition':
      if (!f.oneWay) return [{ partition: [[...f.group]] }];
      return f.group.flatMap((from) =>
        names.filter((to) => !f.group.includes(to)).map((to) => ({ oneWay: { from, to } })),
      );
    case 'disk':
      return [
        {
          disk: {
            node: f.node,
            clear: true,
            full: f.faults.full,
            slowWrites: `${f.faults.writeDelayMs}ms`,
            slowFsync: `${f.faults.fsyncDelayMs}ms`,
            loseUnsynced: f.faults.loseUnsynced,
          },
        },
      ];
    case 'links':
      // The node's rules replaced: cleared, then each rule a `net` step (numbers: ms, a fraction, bit/s).
      return [
        { net: { node: f.node, clear: true } },
        ...f.links.map((r) => ({
          net: {
            node: f.node,
            ...(r.peer === '*' ? {} : { to: [r.peer] }),
            direction: r.direction,
            ...(r.latencyMs === undefined ? {} : { latency: r.latencyMs }),
            ...(r.jitterMs === undefined ? {} : { jitter: r.jitterMs }),
            ...(r.loss === undefined ? {} : { loss: r.loss }),
            ...(r.rateBps === undefined ? {} : { rate: r.rateBps }),
          },
        })),
      ];
  }
}

/** The nodes each fault leaves down, paused, disconnected, shaped, with a disk fault or a clock off, at the end of the schedule. */
function leftOver(faults: readonly SimFault[]) {
  const crashed = new Set<string>();
  const paused = new Set<string>();
  const disconnected = new Set<string>();
  const shaped = new Set<string>();
  const disks = new Set<string>();
  const skewed = new Set<string>();
  const mark = (set: Set<string>, node: string, on: boolean) => (on ? set.add(node) : set.delete(node));
  for (const f of faults) {
    if (f.kind === 'crash') {
      crashed.add(f.node);
      paused.delete(f.node); // a crash ends a pause
    } else if (f.kind === 'restart') crashed.delete(f.node);
    else if (f.kind === 'pause' && !crashed.has(f.node)) paused.add(f.node);
    else if (f.kind === 'unpause') paused.delete(f.node);
    else if (f.kind === 'disconnect') disconnected.add(f.node);
    else if (f.kind === 'connect') disconnected.delete(f.node);
    else if (f.kind === 'links') mark(shaped, f.node, f.links.length > 0);
    else if (f.kind === 'disk') mark(disks, f.node, !noDiskFault(f.faults));
    else if (f.kind === 'skew') mark(skewed, f.node, f.ms !== 0);
  }
  return { crashed, paused, disconnected, shaped, disks, skewed };
}

export function shrunkScenario(o: SimOptions, why: string, provenance: string): ScenarioFile {
  const faults = (o.faults ?? []) as readonly SimFault[];
  const names = Array.from({ length: o.validators }, (_, i) => `validator-${i}`);
  const steps: Step[] = [];
  for (const f of faults)
    for (const [i, s] of stepsOf(f, names).entries()) steps.push(i === 0 ? { at: at(f.atMs), ...s } : s);
  if (faults.length > 0) {
    const left = leftOver(faults);
    steps.push({ at: at(Math.max(...faults.map((f) => f.atMs)) + 1), name: 'every fault undone', heal: {} });
    for (const node of names) {
      if (left.disconnected.has(node)) steps.push({ connect: { node } });
      if (left.paused.has(node)) steps.push({ resume: { node } });
      if (left.crashed.has(node)) steps.push({ start: { node } });
    }
    // What SimCluster.healAll undoes after that, in its order.
    if (left.shaped.size > 0) steps.push({ net: { clear: true } });
    for (const node of names) if (left.disks.has(node)) steps.push({ disk: { node, clear: true } });
    for (const node of names) if (left.skewed.has(node)) steps.push({ clock: { node, skew: '+0ms' } });
    steps.push({ name: 'liveness: three blocks once the network is whole', wait: { blocks: 3 } });
  }
  const withinSeconds = o.maxVirtualMs ?? o.heights * (o.blockTimeMs ?? 1000) * 20;
  steps.push({ expect: { height: { atLeast: o.heights, within: { seconds: withinSeconds / 1000 } } } });
  return {
    name: `sim-${o.seed}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63),
    description: `${provenance}. Seed ${JSON.stringify(o.seed)} failed: ${why}. Replay: devnet test THIS_FILE --runtime sim --seed ${o.seed}`,
    // The seed search's network: one developer account, so the file replays to the seed's run.
    manifest: {
      // A Byzantine validator drawn: the list, each in its place (validator-i), the liar marked.
      validators:
        Object.keys(o.byzantine ?? {}).length === 0
          ? o.validators
          : names.map((n) => {
              const mode = o.byzantine?.[n];
              return mode === undefined ? {} : { byzantine: mode };
            }),
      block_time: `${o.blockTimeMs ?? 1000}ms`,
      developer_accounts: 1,
      monitoring: false,
    },
    ...(o.link === undefined
      ? {}
      : {
          sim: {
            link: {
              latency_ms: o.link.latencyMs,
              jitter_ms: o.link.jitterMs,
              loss: o.link.loss,
              retransmit_ms: o.link.retransmitMs,
            },
          },
        }),
    steps,
  };
}

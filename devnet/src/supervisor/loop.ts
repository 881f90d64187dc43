/**
 * The auto-upgrade supervisor (`devnet up --auto-upgrade`, the manifest's auto_upgrade), what
 * cosmovisor is to a Cosmos node, for every node of the devnet on any runtime: every second it
 * notes each running node's height and the plans the nodes show (GET /upgrades); a node that
 * exited with the halt code (UPGRADE_HALT_EXIT_CODE of @chain-devnet/node/chain; NodeHandle.exitCode) is started again, with its data,
 * on the version the manifest's `upgrades` map gives for the target of the plan it halted at.
 * Nodes halted together (every old node halts at the same height) are all restarted in one
 * pass: none waits for the chain, which goes on once enough of them are back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { UPGRADE_HALT_EXIT_CODE } from '@chain-devnet/node/chain';
import { Devnet } from '../devnet/devnet.js';
import { statusOf } from '../state/devnetState.js';
import { readUpgrades } from '../versions/nodeVersion.js';
import { type KnownPlan, planHaltedFor, plansIn } from './plans.js';

export interface SupervisorMemory {
  plans: KnownPlan[];
  readonly heights: Map<string, number>;
  /** Lines already said (a node left halted is reported once, not every second). */
  readonly told: Set<string>;
}

export const newMemory = (): SupervisorMemory => ({ plans: [], heights: new Map(), told: new Set() });

/** One look at the devnet; returns the nodes restarted on a new version. */
export async function superviseOnce(
  home: string,
  memory: SupervisorMemory,
  log: (line: string) => void,
): Promise<string[]> {
  const d = await Devnet.open(home);
  if (statusOf(d.state) === 'stopped') return [];
  const statuses = await d.status();
  for (const s of statuses) if (s.up && s.height !== null) memory.heights.set(s.name, s.height);
  const answering = statuses.find((s) => s.up);
  if (answering !== undefined) {
    const answer = await readUpgrades(answering.rpc);
    if (answer !== null) memory.plans = plansIn(answer);
  }
  const tell = (line: string) => {
    if (memory.told.has(line)) return;
    memory.told.add(line);
    log(line);
  };
  const restarted: string[] = [];
  for (const s of statuses) {
    if (s.state !== 'stopped') continue;
    const handle = d.runtime.node(s.name);
    if ((await handle.exitCode()) !== UPGRADE_HALT_EXIT_CODE) continue;
    const plan = planHaltedFor(memory.plans, memory.heights.get(s.name) ?? 0);
    if (plan === null) {
      tell(
        `${s.name} halted for an upgrade, but no node showed its plan: left halted (devnet upgrade ${s.name} --to VERSION)`,
      );
      continue;
    }
    const version = d.state.input.manifest.upgrades?.[plan.target_version];
    if (version === undefined) {
      tell(
        `${s.name} halted for the plan to ${plan.target_version} at height ${plan.upgrade_height}; the manifest's upgrades map names no version for ${plan.target_version}: left halted (devnet upgrade ${s.name} --to VERSION)`,
      );
      continue;
    }
    if (version === d.versionOf(s.name)) {
      tell(
        `${s.name} halted for ${plan.target_version} on ${version}, the version upgrades names for it: left halted`,
      );
      continue;
    }
    log(
      `${s.name} halted for the plan to ${plan.target_version} at height ${plan.upgrade_height}: restarting it on ${version}`,
    );
    await handle.replace(await d.launch(d.node(s.name), version));
    await d.saveVersion(s.name, version);
    restarted.push(s.name);
  }
  return restarted;
}

/** Looks every `everyMs` until `signal` aborts; a failed look is said and the next one tried. */
export async function supervise(
  home: string,
  log: (line: string) => void,
  signal: AbortSignal,
  everyMs = 1_000,
): Promise<void> {
  const memory = newMemory();
  log(`supervising the devnet in ${home} (auto-upgrade)`);
  while (!signal.aborted) {
    await superviseOnce(home, memory, log).catch((e: unknown) => log(`supervisor: ${(e as Error).message}`));
    await sleep(everyMs, undefined, { signal }).catch(() => undefined);
  }
}

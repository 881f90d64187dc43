/** GET /upgrades (extension; docs/PROTOCOL.md, "GET /upgrades"): versions and plans, from the state. */
import {
  activeValidators,
  type ChainState,
  MIN_UPGRADE_DELAY,
  paramsToJson,
  quorum,
  sortedKeys,
  type UpgradePlan,
} from '../chain/index.js';
import { P2P_VERSION } from '../p2p/protocol.js';
import type { PendingUpgradeAnswer, UpgradePlanAnswer, UpgradesAnswer } from './answers.js';
import type { NodeVersions } from './backend.js';

const planView = (p: UpgradePlan): UpgradePlanAnswer => ({
  target_version: p.targetVersion,
  upgrade_height: p.upgradeHeight,
});

const key = (p: UpgradePlan) => `${p.targetVersion}@${p.upgradeHeight}`;

export function upgradesView(s: ChainState, versions: NodeVersions): UpgradesAnswer {
  const active = activeValidators(s).map((v) => v.address);
  const n = active.length;
  const signersOf = (kind: 'plan' | 'cancel', plan: UpgradePlan) =>
    active.filter((a) => {
      const sig = s.upgradeSignals.get(a);
      return sig?.kind === kind && key(sig.plan) === key(plan);
    });
  const pending = (plan: UpgradePlan, scheduled: boolean): PendingUpgradeAnswer => ({
    ...planView(plan),
    scheduled,
    signers: signersOf(scheduled ? 'cancel' : 'plan', plan),
    needed: scheduled ? Math.floor(n / 3) + 1 : quorum(n),
    active_validators: n,
    supported: versions.supported.includes(plan.targetVersion),
  });
  const scheduled = s.upgrades.filter((u) => u.upgradeHeight > s.height);
  const proposed = new Map<string, UpgradePlan>();
  for (const addr of sortedKeys(s.upgradeSignals)) {
    const sig = s.upgradeSignals.get(addr)!;
    if (sig.kind === 'plan') proposed.set(key(sig.plan), sig.plan);
  }
  return {
    node_version: versions.node,
    protocol_version: s.protocolVersion,
    supported_protocol_versions: versions.supported,
    p2p_version: P2P_VERSION,
    height: s.height,
    min_upgrade_delay: MIN_UPGRADE_DELAY,
    pending: [
      ...scheduled.map((p) => pending(p, true)),
      ...[...proposed.values()]
        .sort((a, b) => a.upgradeHeight - b.upgradeHeight)
        .map((p) => pending(p, false)),
    ],
    applied: s.upgrades.filter((u) => u.upgradeHeight <= s.height).map(planView),
    params: paramsToJson(s.params),
  };
}

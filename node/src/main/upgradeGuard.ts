/**
 * The node's side of the halting rule (docs/RULES.md, "Versions and halting"): before the node
 * signs anything at a height (consensus enters it) and after every commit, it asks whether the
 * next height is a plan's this binary has no migration for. The first time the answer is yes it
 * logs the one line a supervisor waits for and settles `halted`; the composition root then stops
 * the node and chain-node exits with UPGRADE_HALT_EXIT_CODE.
 */

import type { Logger } from '@chain-devnet/kit/log';
import {
  type ChainState,
  describeHalt,
  type MigrationRegistry,
  type UpgradeHalt,
  upgradeHaltAt,
} from '../chain/index.js';

export class UpgradeGuard {
  readonly halted: Promise<UpgradeHalt>;
  private settle: (h: UpgradeHalt) => void = () => undefined;
  private fired: UpgradeHalt | null = null;

  constructor(
    private readonly registry: MigrationRegistry,
    private readonly nodeVersion: string,
    private readonly logger: Logger,
  ) {
    this.halted = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** True when the node must not sign at `state.height + 1`: it halts (once). */
  haltsBefore(state: ChainState): boolean {
    if (this.fired !== null) return true;
    const halt = upgradeHaltAt(state, this.registry);
    if (halt === null) return false;
    this.fired = halt;
    this.logger.error(describeHalt(halt, this.nodeVersion), {
      upgrade_height: halt.plan.upgradeHeight,
      target_version: halt.plan.targetVersion,
      current_version: halt.current,
      node_version: this.nodeVersion,
    });
    this.settle(halt);
    return true;
  }
}

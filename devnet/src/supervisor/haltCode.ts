/**
 * chain-node's exit code when it halts at an upgrade plan's height it has no migration for
 * (docs/RULES.md, "Versions and halting"): what the auto-upgrade supervisor waits for.
 * TODO(issue 28): import UPGRADE_HALT_EXIT_CODE from @chain-devnet/node/chain once the node's side
 * is merged; this is the one place the number is written in the devnet.
 */
export const UPGRADE_HALT_EXIT_CODE = 3;

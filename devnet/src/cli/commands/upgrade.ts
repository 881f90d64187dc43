/**
 * `devnet upgrade …`: upgrades of the devnet's chain and nodes (issue 28).
 *   plan --version V --height H, cancel     the chain's upgrade plans (upgradePlans.ts)
 *   NODE --to VERSION, --all --to VERSION   restart nodes on another version (upgradeNodes.ts)
 */
import { defineCommand } from '@chain-devnet/kit/cli';
import { homeOption, jsonOption } from '../commonOptions.js';
import { NODE_UPGRADE_DETAILS, NODE_UPGRADE_OPTIONS, upgradeNodes } from './upgradeNodes.js';
import { PLAN_ACTIONS, PLAN_UPGRADE_DETAILS, PLAN_UPGRADE_OPTIONS, upgradePlans } from './upgradePlans.js';

const isPlanAction = (what: string | undefined): what is (typeof PLAN_ACTIONS)[number] =>
  (PLAN_ACTIONS as readonly (string | undefined)[]).includes(what);

export const upgradeCommand = defineCommand({
  name: 'upgrade',
  summary: 'plan or cancel an upgrade of the running chain, or restart NODE (or --all) on another version',
  options: { ...PLAN_UPGRADE_OPTIONS, ...NODE_UPGRADE_OPTIONS, home: homeOption, json: jsonOption },
  positionals: [
    { name: 'WHAT', description: 'plan, cancel, or which node (devnet status lists them)', required: false },
  ],
  details: `${PLAN_UPGRADE_DETAILS}\n${NODE_UPGRADE_DETAILS}`,
  run: ({ values: v, positionals }) => {
    const what = positionals[0];
    if (isPlanAction(what)) return upgradePlans(v, what);
    return upgradeNodes(v, what);
  },
});

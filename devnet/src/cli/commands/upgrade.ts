/**
 * `devnet upgrade …`: upgrades of the devnet's chain and nodes (issue 28).
 *   plan --version V --height H, cancel   the chain's upgrade plans (upgradePlans.ts)
 * The node-version branch (`devnet upgrade NODE --to VERSION`, `--all`) joins this command when
 * merged: its options beside PLAN_UPGRADE_OPTIONS, its branch where marked below.
 */
import { defineCommand } from '@chain-devnet/node/cli';
import { DevnetError } from '../../errors.js';
import { homeOption, jsonOption } from '../commonOptions.js';
import { PLAN_ACTIONS, PLAN_UPGRADE_DETAILS, PLAN_UPGRADE_OPTIONS, upgradePlans } from './upgradePlans.js';

const isPlanAction = (what: string | undefined): what is (typeof PLAN_ACTIONS)[number] =>
  (PLAN_ACTIONS as readonly (string | undefined)[]).includes(what);

export const upgradeCommand = defineCommand({
  name: 'upgrade',
  summary: 'plan or cancel an upgrade of the running chain (the validators sign it)',
  options: { ...PLAN_UPGRADE_OPTIONS, home: homeOption, json: jsonOption },
  positionals: [{ name: 'WHAT', description: 'plan or cancel', required: true }],
  details: PLAN_UPGRADE_DETAILS,
  run: ({ values: v, positionals }) => {
    const what = positionals[0];
    if (isPlanAction(what)) return upgradePlans(v, what);
    // The node-version branch (devnet upgrade NODE --to VERSION) goes here.
    throw new DevnetError('BAD_FLAG', `devnet upgrade ${what}: say plan or cancel`);
  },
});

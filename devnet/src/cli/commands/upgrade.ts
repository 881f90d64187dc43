/**
 * `devnet upgrade …`: upgrades of the devnet's nodes (issue 28).
 *   NODE --to VERSION, --all --to VERSION   restart nodes on another version (upgradeNodes.ts)
 * The chain's upgrade plans (`devnet upgrade plan|cancel`) join this command when merged.
 */
import { defineCommand } from '@chain-devnet/node/cli';
import { homeOption, jsonOption } from '../commonOptions.js';
import { NODE_UPGRADE_DETAILS, NODE_UPGRADE_OPTIONS, upgradeNodes } from './upgradeNodes.js';

export const upgradeCommand = defineCommand({
  name: 'upgrade',
  summary: 'restart NODE (or --all, one after another) on another version, its data kept',
  options: { ...NODE_UPGRADE_OPTIONS, home: homeOption, json: jsonOption },
  positionals: [{ name: 'NODE', description: 'which node (devnet status lists them)', required: false }],
  details: NODE_UPGRADE_DETAILS,
  run: ({ values: v, positionals }) => upgradeNodes(v, positionals[0]),
});

/**
 * `devnet upgrade …`: upgrades of the devnet's chain and nodes (issue 28).
 *   plan --version V --height H   the validators sign an upgrade plan until it is scheduled
 *   cancel [--version V --height H]  they cancel it (default: the pending plan)
 * Restarting nodes on another version (`devnet upgrade NODE --to VERSION`, `--all`) belongs here
 * too: its options and its branch go where marked below.
 */
import { defineCommand, integer, text } from '@chain-devnet/node/cli';
import { Devnet } from '../../devnet.js';
import { DevnetError } from '../../errors.js';
import type { UpgradePlanJson } from '../../jsonShapes.js';
import { signUpgrade } from '../../operations/upgradePlan.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';

export const upgradeCommand = defineCommand({
  name: 'upgrade',
  summary: 'plan or cancel an upgrade of the running chain (the validators sign it)',
  options: {
    version: text('plan, cancel: the target protocol version, MAJOR.MINOR.PATCH', { valueName: 'V' }),
    height: integer('plan, cancel: the upgrade height (at least 10 blocks ahead for a plan)', {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    }),
    node: text('the node the transactions go to (default the first)', { valueName: 'NODE' }),
    // Node versions (devnet upgrade NODE --to VERSION, --all): their options here.
    home: homeOption,
    json: jsonOption,
  },
  positionals: [{ name: 'WHAT', description: 'plan or cancel', required: true }],
  details: `devnet upgrade plan --version 1.1.0 --height 500
  the active validators sign UPGRADE_PLAN one after another until more than 2/3 have: the plan is
  scheduled; at height 500 a node without a migration to 1.1.0 halts (exit code 3).
devnet upgrade cancel [--version 1.1.0 --height 500]
  cancels the pending plan: a scheduled one once more than 1/3 of the validators signed the cancel.
The plan's rules: docs/RULES.md, "Upgrade plans"; the chain's versions: GET /upgrades.`,
  run: async ({ values: v, positionals }) => {
    const what = positionals[0];
    // Node versions (devnet upgrade NODE --to VERSION, --all): their branch here.
    if (what !== 'plan' && what !== 'cancel')
      throw new DevnetError('BAD_FLAG', `devnet upgrade ${what}: say plan or cancel`);
    const d = await Devnet.open(homeOf(v.home));
    const r = await signUpgrade(d, {
      cancel: what === 'cancel',
      ...(v.version === undefined ? {} : { version: v.version }),
      ...(v.height === undefined ? {} : { height: v.height }),
      ...(v.node === undefined ? {} : { node: v.node }),
      ...(v.json ? {} : { progress }),
    });
    if (v.json) printJson<UpgradePlanJson>(r);
    else
      out(
        `${r.target_version} at height ${r.upgrade_height}: ${
          r.done ? (what === 'plan' ? 'scheduled' : 'cancelled') : 'not yet (see devnet status)'
        } (signed by ${r.signed_by.join(', ') || 'nobody'})`,
      );
    return r.done ? 0 : 1;
  },
});

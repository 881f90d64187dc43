/**
 * The chain branch of `devnet upgrade` (`devnet upgrade plan --version V --height H`, `devnet
 * upgrade cancel`): its options and what it does, kept apart so that the command (upgrade.ts) also
 * holds the node-version branch (`devnet upgrade NODE --to VERSION`, `--all`, issue 28's other half).
 */
import { integer, text } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import type { UpgradePlanJson } from '../../json/jsonShapes.js';
import { signUpgrade } from '../../operations/upgradePlan.js';
import { homeOf } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';

export const PLAN_ACTIONS = ['plan', 'cancel'] as const;

export const PLAN_UPGRADE_OPTIONS = {
  version: text('plan, cancel: the target protocol version, MAJOR.MINOR.PATCH', { valueName: 'V' }),
  height: integer('plan, cancel: the upgrade height (at least 10 blocks ahead for a plan)', {
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
  }),
  node: text('plan, cancel: the node the transactions go to (default the first)', { valueName: 'NODE' }),
};

export const PLAN_UPGRADE_DETAILS = `devnet upgrade plan --version 1.1.0 --height 500
  the active validators sign UPGRADE_PLAN one after another until more than 2/3 have: the plan is
  scheduled; at height 500 a node without a migration to 1.1.0 halts (exit code 3).
devnet upgrade cancel [--version 1.1.0 --height 500]
  cancels the pending plan: a scheduled one once more than 1/3 of the validators signed the cancel.
The plan's rules: docs/RULES.md, "Upgrade plans"; the chain's versions: GET /upgrades.`;

/** `devnet upgrade plan|cancel`. */
export async function upgradePlans(
  v: {
    readonly version: string | undefined;
    readonly height: number | undefined;
    readonly node: string | undefined;
    readonly home: string | undefined;
    readonly json: boolean;
  },
  action: (typeof PLAN_ACTIONS)[number],
): Promise<number> {
  const d = await Devnet.open(homeOf(v.home));
  const r = await signUpgrade(d, {
    cancel: action === 'cancel',
    ...(v.version === undefined ? {} : { version: v.version }),
    ...(v.height === undefined ? {} : { height: v.height }),
    ...(v.node === undefined ? {} : { node: v.node }),
    ...(v.json ? {} : { progress }),
  });
  if (v.json) printJson<UpgradePlanJson>(r);
  else
    out(
      `${r.target_version} at height ${r.upgrade_height}: ${
        r.done ? (action === 'plan' ? 'scheduled' : 'cancelled') : 'not yet (see GET /upgrades)'
      } (signed by ${r.signed_by.join(', ') || 'nobody'})`,
    );
  return r.done ? 0 : 1;
}

/**
 * `devnet upgrade plan --version V --height H` and `devnet upgrade cancel`: the chain side of an
 * upgrade (docs/RULES.md, "Upgrade plans"). The devnet holds every validator's key, so it signs
 * the plan (or its cancel) with one active validator after another, through the devnet's own tx
 * path (operations/tx.ts), until the node's GET /upgrades shows it scheduled (or cancelled).
 */
import type { UpgradesAnswer } from '@chain-devnet/node/client';
import { DevnetError } from '../base/errors.js';
import type { Devnet } from '../devnet/devnet.js';
import { devnetTxNetwork, sendTxOn, type TxNetwork, type TxOutcome } from './tx.js';

export interface UpgradePlanResult {
  /** What was signed. */
  readonly target_version: string;
  readonly upgrade_height: number;
  /** Scheduled (plan) or cancelled (cancel) when it returned. */
  readonly done: boolean;
  /** The node names that signed, in order. */
  readonly signed_by: readonly string[];
  /** Their confirmed transactions, in the same order (the testkit's ledger counts them). */
  readonly txs: readonly { readonly tx_hash: string; readonly block_height: number; readonly from: string }[];
  /** GET /upgrades of the node the transactions went to, after the last one. */
  readonly upgrades: UpgradesAnswer;
}

/** The network's nodes whose validator is active now, in the network's order. */
async function activeValidatorNodes(net: TxNetwork, via: string): Promise<string[]> {
  const { validators } = await (await net.client(via)).validators();
  const active = new Set(validators.filter((v) => v.is_active).map((v) => v.address));
  return net.nodeNames().filter((n) => active.has(net.validatorAddress(n)));
}

function failed(r: TxOutcome): string | null {
  if (r.submit.status === 'rejected') return r.submit.error ?? 'rejected';
  if (r.receipt?.status === 'failed') return r.receipt.error ?? 'failed';
  return null;
}

const samePlan = (p: { target_version: string; upgrade_height: number }, v: string, h: number) =>
  p.target_version === v && p.upgrade_height === h;

/**
 * Signs UPGRADE_PLAN (or, with `cancel`, UPGRADE_CANCEL) for {version, height} with one active
 * validator after another until the plan is scheduled (cancelled); a cancel without a version
 * and height names the pending plan. `node`: where the transactions go (default: one that answers).
 */
export function signUpgrade(devnet: Devnet, o: UpgradeRequest): Promise<UpgradePlanResult> {
  const what = `upgrade ${o.cancel ? 'cancel' : 'plan'}${o.version === undefined ? '' : ` ${o.version}`}${o.height === undefined ? '' : ` at ${o.height}`}`;
  devnet.events.note('upgrade', what, {
    version: o.version ?? null,
    upgrade_height: o.height ?? null, // not `height`: on the timeline that is the height an entry happened at
    cancel: o.cancel,
  });
  return signUpgradeOn(devnetTxNetwork(devnet), o);
}

/** What signUpgrade is asked. */
export interface UpgradeRequest {
  readonly cancel: boolean;
  readonly version?: string;
  readonly height?: number;
  readonly node?: string;
  readonly progress?: (line: string) => void;
}

/** signUpgrade on any network of keys and RPC (a devnet's, the simulation's: operations/tx.ts TxNetwork). */
export async function signUpgradeOn(net: TxNetwork, o: UpgradeRequest): Promise<UpgradePlanResult> {
  const via = o.node ?? net.nodeNames()[0];
  if (via === undefined) throw new DevnetError('NO_DEVNET', 'the devnet has no node');
  const client = await net.client(via);
  let upgrades = await client.upgrades();
  let version = o.version;
  let height = o.height;
  if (o.cancel && (version === undefined || height === undefined)) {
    const pending = upgrades.pending[0];
    if (pending === undefined)
      throw new DevnetError('BAD_FLAG', 'devnet upgrade cancel: no plan is pending (GET /upgrades)');
    version = pending.target_version;
    height = pending.upgrade_height;
  }
  if (version === undefined || height === undefined)
    throw new DevnetError('BAD_FLAG', 'devnet upgrade plan needs --version V and --height H');
  const isDone = (u: UpgradesAnswer) => {
    const p = u.pending.find((x) => samePlan(x, version, height));
    return o.cancel ? p === undefined : p?.scheduled === true;
  };
  const signers = o.cancel
    ? // A plan not scheduled: its signers withdraw; a scheduled one: the active validators cancel it.
      upgrades.pending.find((x) => samePlan(x, version, height) && !x.scheduled) !== undefined
      ? net
          .nodeNames()
          .filter((n) =>
            upgrades.pending.some(
              (x) => samePlan(x, version, height) && x.signers.includes(net.validatorAddress(n)),
            ),
          )
      : await activeValidatorNodes(net, via)
    : await activeValidatorNodes(net, via);
  const signed: string[] = [];
  const txs: { tx_hash: string; block_height: number; from: string }[] = [];
  const type = o.cancel ? 'UPGRADE_CANCEL' : 'UPGRADE_PLAN';
  for (const name of signers) {
    if (isDone(upgrades)) break;
    const r = await sendTxOn(net, {
      type,
      from: name,
      targetVersion: version,
      upgradeHeight: height,
      node: via,
      wait: true,
    });
    const why = failed(r);
    if (why !== null)
      throw new DevnetError('TX_FAILED', `${type} ${version} at ${height} from ${name}: ${why}`);
    signed.push(name);
    if (r.receipt?.status === 'confirmed')
      txs.push({ tx_hash: r.tx_hash, block_height: r.receipt.block_height!, from: name });
    o.progress?.(`${type} ${version} at height ${height} signed by ${name}`);
    upgrades = await client.upgrades();
  }
  return {
    target_version: version,
    upgrade_height: height,
    done: isDone(upgrades),
    signed_by: signed,
    txs,
    upgrades,
  };
}

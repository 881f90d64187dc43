/**
 * `devnet add`: a new node joins the running devnet and syncs from its peers. With --stake it is
 * funded from a developer account and sends STAKE from its own key, so it becomes a validator
 * at the next eligible epoch boundary (the chain's activation rule, docs/RULES.md). With
 * --state-sync it starts from a peer's verified snapshot and fetches only the blocks after it.
 * With --version it runs that version of chain-node (a git ref built once into the cache, a
 * path, an image: the manifest's forms, versions/source.ts) instead of the checkout's. With --zone
 * it is in that zone of the zones in force (operations/net.ts).
 */
import { coins, parseAmount } from '@chain-devnet/node/chain';
import { DevnetError } from '../base/errors.js';
import type { Devnet } from '../devnet/devnet.js';
import type { Progress } from '../runtime/runtime.js';
import { pinVersion } from '../versions/resolve.js';
import { CHECKOUT_VERSION } from '../versions/source.js';
import { checkZone, joinZone } from './net.js';
import { describeOutcome, devnetTxNetwork, sendTxOn, type TxNetwork, type TxOutcome } from './tx.js';

export interface AddOptions {
  readonly name?: string;
  readonly stake?: string;
  /** The account that pays the stake (default: the first developer account). */
  readonly fundFrom?: string;
  /** The machine to run it on (multi-machine runtimes). */
  readonly placement?: string;
  /** It joins from a verified snapshot of its peers instead of replaying every block (`--state-sync`). */
  readonly stateSync?: boolean;
  /** The version it runs (`--version`, a manifest version's forms); default the checkout's build. */
  readonly version?: string;
  /** Its zone, one of the zones in force (`--zone`; devnet/README.md, "Zones"). */
  readonly zone?: string;
  readonly progress: Progress;
}

export interface AddResult {
  readonly name: string;
  readonly rpc: string;
  readonly height: number;
  readonly funding: TxOutcome | null;
  readonly stake: TxOutcome | null;
}

/** `--stake` as wei (null: none asked), or BAD_FLAG for what is not a positive amount. */
export function parseStake(stake: string | undefined): bigint | null {
  if (stake === undefined) return null;
  const wei = parseAmount(stake);
  if (wei === null || wei === 0n)
    throw new DevnetError('BAD_FLAG', `--stake must be an amount like 100coin, got ${stake}`);
  return wei;
}

export async function addNode(devnet: Devnet, o: AddOptions): Promise<AddResult> {
  const stake = parseStake(o.stake);
  const funder = o.fundFrom ?? devnet.spec.accounts[0]?.name;
  if (stake !== null && funder === undefined)
    throw new DevnetError('BAD_FLAG', 'no developer account to fund the stake from: pass --fund-from NAME');
  const reference = devnet.nodes[0]!.name;
  const target = (await (await devnet.client(reference)).status()).height;
  // Pinned and found or built (a git ref) before anything is recorded: a bad version costs nothing.
  const version = o.version === undefined ? null : await pinVersion(o.version, '--version');
  if (version !== null) await devnet.build(version);
  if (o.zone !== undefined) await checkZone(devnet, o.zone);
  const node = await devnet.recordAdded(o.name, {
    stake,
    placement: o.placement ?? null,
    stateSync: o.stateSync ?? false,
    version: version === CHECKOUT_VERSION ? null : version,
  });
  const on = version === null ? '' : ` on ${version}`;
  devnet.events.note('add', `add ${node.name}${on}`, { node: node.name, state_sync: o.stateSync ?? false });
  o.progress(`${node.name}: starting${on}, ${o.stateSync ? 'state-syncing' : 'syncing'} to height ${target}`);
  try {
    await devnet.startNode(node.name);
  } catch (e) {
    // A version this runtime cannot run (an image on processes) is refused before anything starts.
    if (e instanceof DevnetError && e.code === 'BAD_VERSION') await devnet.forgetAdded(node.name);
    throw e;
  }
  // The others' conditions name the newcomer too: its zone's round trips (or as they were).
  if (o.zone === undefined) await devnet.net.applyAll(await devnet.peers());
  else await joinZone(devnet, node.name, o.zone);
  const { rpc } = await devnet.endpoint(node.name);
  o.progress(`${node.name}: RPC ${rpc}`);
  await devnet.waitForHeight([node.name], target, devnet.progressBound(target));
  const height = (await (await devnet.client(node.name)).status()).height;
  o.progress(`${node.name}: synced at height ${height}`);
  if (stake === null) return { name: node.name, rpc, height, funding: null, stake: null };

  const { funding, staked } = await fundAndStake(
    devnetTxNetwork(devnet),
    node.name,
    stake,
    funder!,
    reference,
    o.progress,
  );
  return { name: node.name, rpc, height, funding, stake: staked };
}

/**
 * An added node's stake: `stake` plus one coin for fees sent it from `funder`, then its STAKE from
 * its own key (both through `reference`, the node that confirmed the funding: the new node may be
 * a block behind); the outcomes, or TX_FAILED naming the one that failed. The same on every runtime
 * and on the simulation (`net` is the devnet's or the simulation's keys and RPC).
 */
export async function fundAndStake(
  net: TxNetwork,
  name: string,
  stake: bigint,
  funder: string,
  reference: string,
  progress: Progress,
): Promise<{ funding: TxOutcome; staked: TxOutcome }> {
  const fundOptions = {
    type: 'TRANSFER' as const,
    from: funder,
    to: name,
    amount: `${stake + coins(1)}wei`,
    node: reference,
    wait: true,
  };
  const funding = await sendTxOn(net, fundOptions);
  progress(describeOutcome(fundOptions, funding));
  if (funding.receipt?.status !== 'confirmed')
    throw new DevnetError('TX_FAILED', `funding ${name} failed: ${describeOutcome(fundOptions, funding)}`);
  const stakeOptions = {
    type: 'STAKE' as const,
    from: name,
    amount: `${stake}wei`,
    name,
    node: reference,
    wait: true,
  };
  const staked = await sendTxOn(net, stakeOptions);
  progress(describeOutcome(stakeOptions, staked));
  if (staked.receipt?.status !== 'confirmed')
    throw new DevnetError('TX_FAILED', `STAKE from ${name} failed: ${describeOutcome(stakeOptions, staked)}`);
  return { funding, staked };
}

/**
 * `devnet add` on the simulation (net.add of a SimTestnet, a scenario's `add` step on `--runtime
 * sim`): a node joins with its key as a devnet's added node's (SimCluster.add), by block sync or
 * by state sync, in a zone of those in force or on the links the conditions in force give it;
 * with stake, funded and staked as on a devnet (operations/add.ts, fundAndStake). It has synced to
 * the height it found when this resolves. Another version of the node is not simulated: refused.
 */
import { waitFor } from '@chain-devnet/kit/wait';
import type { SimCluster } from '@chain-devnet/node/sim';
import { type AddResult, fundAndStake, parseStake } from '../../operations/add.js';
import { checkZone, joinZone } from '../../operations/net.js';
import type { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import type { TestnetAdd } from './options.js';
import type { SimNet } from './simNet.js';
import { simTxNetwork } from './simNodes.js';

/** The virtual time a node's start may take (a state sync gives up well within it: block sync then). */
const START_BOUND_MS = 600_000;

export interface SimAddParts {
  readonly cluster: SimCluster;
  readonly simNet: SimNet;
  readonly net: NetContext;
  readonly log: (line: string) => void;
}

export async function addSimNode(p: SimAddParts, o: TestnetAdd): Promise<AddResult> {
  const { cluster, simNet, net, log } = p;
  if (o.version !== undefined)
    throw new TestkitUsageError(
      `add --version ${o.version} is not simulated (the simulation runs this checkout's code only): run it on a devnet's runtime`,
    );
  const stake = parseStake(o.stake);
  if (o.zone !== undefined) await checkZone(simNet, o.zone);
  const reference = net.names()[0]!;
  const target = cluster.node(reference).height;
  const { node, started } = cluster.join({
    ...(o.name === undefined ? {} : { name: o.name }),
    stateSync: o.stateSync === true,
  });
  // Its start takes virtual time (a state sync's requests): waited for on the waits' clock, which runs it.
  let failed: unknown = null;
  let done = false;
  started.then(
    () => {
      done = true;
    },
    (e: unknown) => {
      failed = e;
      done = true;
    },
  );
  await waitFor(`${node.name} started`, START_BOUND_MS, async () => (done ? true : null));
  if (failed !== null) throw failed;
  log(`${node.name}: started, ${o.stateSync === true ? 'state-syncing' : 'syncing'} to height ${target}`);
  // The others' conditions name the newcomer too: its zone's round trips (or as they were).
  if (o.zone === undefined) await simNet.net.change(await simNet.peers(), (s) => s);
  else await joinZone(simNet, node.name, o.zone);
  await net.chain.waitHeight(target, [node.name]);
  log(`${node.name}: synced at height ${node.height}`);
  const base = { name: node.name, rpc: cluster.rpcUrl(node.name), height: node.height };
  if (stake === null) return { ...base, funding: null, stake: null };
  const funder = net.accounts[0]?.name;
  if (funder === undefined) throw new TestkitUsageError('no developer account to fund the stake from');
  const { funding, staked } = await fundAndStake(
    simTxNetwork(cluster, net),
    node.name,
    stake,
    funder,
    reference,
    log,
  );
  const r = { ...base, funding, stake: staked };
  net.ledger.recordAdded(r);
  return r;
}

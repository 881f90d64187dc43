/** `devnet add`: a new node joins the running devnet (with --stake it becomes a validator). */
import { defineCommand, flag, text } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import type { AddJson } from '../../json/jsonShapes.js';
import { addNode } from '../../operations/add.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';

export const addCommand = defineCommand({
  name: 'add',
  summary: 'a new node joins the running devnet (--stake makes it a validator)',
  options: {
    name: text('its name (default validator-<i>)', { valueName: 'NAME' }),
    stake: text("stake it sends, e.g. 100coin (the devnet's minimum stake)", { valueName: 'AMOUNT' }),
    'fund-from': text('the developer account that funds it (default account-0)', { valueName: 'ACCOUNT' }),
    placement: text("swarm: the machine it runs on (a swarm node's name or id; default round robin)", {
      valueName: 'MACHINE',
    }),
    'state-sync': flag(
      "join from a recent snapshot of its peers, verified against the chain's committed header, " +
        'instead of replaying every block from 1',
    ),
    version: text(
      'the chain-node it runs: checkout (default), git:REF (built once into the cache), path:DIR or image:NAME (docker, swarm)',
      { valueName: 'VERSION' },
    ),
    zone: text(
      'its zone, one of the zones in force (devnet zones lists them): its round trips to the others',
      {
        valueName: 'ZONE',
      },
    ),
    home: homeOption,
    json: jsonOption,
  },
  details:
    "Starts a new node that syncs from its peers. With --stake, the node's account is funded from a " +
    'developer account and sends STAKE: it becomes ACTIVE at the next eligible epoch boundary.',
  run: async ({ values: v }) => {
    const d = await Devnet.open(homeOf(v.home));
    const r = await addNode(d, {
      ...(v.name === undefined ? {} : { name: v.name }),
      ...(v.stake === undefined ? {} : { stake: v.stake }),
      ...(v['fund-from'] === undefined ? {} : { fundFrom: v['fund-from'] }),
      ...(v.placement === undefined ? {} : { placement: v.placement }),
      ...(v['state-sync'] ? { stateSync: true } : {}),
      ...(v.version === undefined ? {} : { version: v.version }),
      ...(v.zone === undefined ? {} : { zone: v.zone }),
      progress: v.json ? () => undefined : progress,
    });
    if (v.json) {
      const spec = d.node(r.name);
      printJson<AddJson>({ ...r, address: spec.key.address, validator_address: spec.key.validator_address });
    } else
      out(
        `${r.name} joined at height ${r.height}: ${r.rpc}${r.stake ? ' (staked: ACTIVE from the next eligible epoch boundary)' : ''}`,
      );
    return 0;
  },
});

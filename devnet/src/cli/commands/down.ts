/** `devnet down`: stop and remove everything the devnet made. */
import { defineCommand, flag } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import type { DownJson } from '../../json/jsonShapes.js';
import { takeDown } from '../../operations/down.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

export const downCommand = defineCommand({
  name: 'down',
  summary: 'stop and remove everything the devnet made (--keep-data keeps its files)',
  options: {
    'keep-data': flag("keep the devnet's folder (its nodes' data, keys and logs)"),
    home: homeOption,
    json: jsonOption,
  },
  details: 'Stops and removes every process, container, network and volume of the devnet, and its folder.',
  run: async ({ values: v }) => {
    const d = await Devnet.open(homeOf(v.home));
    const removed = await takeDown(d.layout, d.runtime, v['keep-data']);
    if (v.json) printJson<DownJson>({ removed });
    else {
      for (const r of removed) out(`removed ${r}`);
      out(`devnet down${v['keep-data'] ? ` (files kept in ${d.layout.home})` : ''}`);
    }
    return 0;
  },
});

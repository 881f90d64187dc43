/** `devnet upgrade NODE --to VERSION`, `devnet upgrade --all --to VERSION` (a rolling upgrade). */
import { defineCommand, flag, text } from '@chain-devnet/node/cli';
import { Devnet } from '../../devnet.js';
import { DevnetError } from '../../errors.js';
import type { UpgradeJson } from '../../jsonShapes.js';
import { upgrade } from '../../operations/upgrade.js';
import { VERSION_FORMS } from '../../versions/source.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';

export const upgradeCommand = defineCommand({
  name: 'upgrade',
  summary: 'restart NODE (or --all, one after another) on another version, its data kept',
  options: {
    to: text(`the version: ${VERSION_FORMS} (devnet/README.md, "Rehearsing an upgrade")`, {
      valueName: 'VERSION',
    }),
    all: flag('every node, one after another (a rolling upgrade), each back in consensus before the next'),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [{ name: 'NODE', description: 'which node (devnet status lists them)', required: false }],
  details:
    'The node is stopped gracefully, its chain-node (binary or image) swapped for VERSION, and started with its ' +
    'data; the command returns once it is back in consensus (its height above where the others were, peers ' +
    "connected). A git ref is built once into the build cache first. devnet status shows each node's version.",
  run: async ({ values: v, positionals }) => {
    const name = positionals[0];
    if (v.to === undefined) throw new DevnetError('BAD_FLAG', `--to VERSION is required (${VERSION_FORMS})`);
    if ((name === undefined) === !v.all)
      throw new DevnetError('BAD_FLAG', 'name one NODE, or --all for every node (not both)');
    const d = await Devnet.open(homeOf(v.home));
    const names = name === undefined ? d.nodes.map((n) => n.name) : [name];
    const done = await upgrade(d, names, v.to, v.json ? () => undefined : progress);
    if (v.json) printJson<UpgradeJson>({ upgraded: done });
    else for (const u of done) out(`${u.node}: on ${u.to}, back in consensus at height ${u.height}`);
    return 0;
  },
});

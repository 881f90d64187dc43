/**
 * The node-version branch of `devnet upgrade` (`devnet upgrade NODE --to VERSION`, `--all`): its
 * options and what it does, kept apart so that the command (upgrade.ts) also holds the chain's
 * upgrade plans (`devnet upgrade plan|cancel`, issue 28's other half).
 */
import { flag, text } from '@chain-devnet/kit/cli';
import { DevnetError } from '../../base/errors.js';
import { Devnet } from '../../devnet/devnet.js';
import type { UpgradeJson } from '../../json/jsonShapes.js';
import { upgrade } from '../../operations/upgrade.js';
import { VERSION_FORMS } from '../../versions/source.js';
import { homeOf } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';

export const NODE_UPGRADE_OPTIONS = {
  to: text(`NODE, --all: the version to run: ${VERSION_FORMS} (devnet/README.md, "Rehearsing an upgrade")`, {
    valueName: 'VERSION',
  }),
  all: flag(
    'with --to: every node, one after another (a rolling upgrade), each back in consensus before the next',
  ),
};

export const NODE_UPGRADE_DETAILS = `devnet upgrade NODE --to VERSION
  the node stopped gracefully, its chain-node (binary or image) swapped for VERSION, started with its
  data; returns once it is back in consensus (above the height the others had, peers connected). A git
  ref is built once into the build cache first. A node that exits on VERSION instead (4: it refuses its
  store's protocol version) is seen at once and put back as it was, on its version before (started
  again if it ran); the error names the node, both versions, the exit code and the node's reason.
devnet upgrade --all --to VERSION
  every node so, one after another (a rolling upgrade), stopping at the first that does not come back.
  devnet status shows each node's version.`;

/** `devnet upgrade NODE|--all --to VERSION`. */
export async function upgradeNodes(
  v: {
    readonly to: string | undefined;
    readonly all: boolean;
    readonly home: string | undefined;
    readonly json: boolean;
  },
  name: string | undefined,
): Promise<number> {
  if (v.to === undefined) throw new DevnetError('BAD_FLAG', `--to VERSION is required (${VERSION_FORMS})`);
  if ((name === undefined) === !v.all)
    throw new DevnetError('BAD_FLAG', 'name one NODE, or --all for every node (not both)');
  const d = await Devnet.open(homeOf(v.home));
  const names = name === undefined ? d.nodes.map((n) => n.name) : [name];
  const done = await upgrade(d, names, v.to, v.json ? () => undefined : progress);
  if (v.json) printJson<UpgradeJson>({ upgraded: done });
  else for (const u of done) out(`${u.node}: on ${u.to}, back in consensus at height ${u.height}`);
  return 0;
}

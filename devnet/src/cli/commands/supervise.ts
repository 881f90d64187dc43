/** `devnet supervise`: the auto-upgrade supervisor in the foreground (`up --auto-upgrade` runs it in the background). */
import { defineCommand } from '@chain-devnet/kit/cli';
import { supervise } from '../../supervisor/loop.js';
import { homeOf, homeOption } from '../commonOptions.js';

export const superviseCommand = defineCommand({
  name: 'supervise',
  summary: "restart nodes that halt for an upgrade plan on the plan's version (until SIGTERM or Ctrl-C)",
  options: { home: homeOption },
  details:
    "A node that exits with chain-node's upgrade-halt code is started again, with its data, on the version the " +
    "manifest's upgrades map names for the plan's target_version. devnet up --auto-upgrade starts this in the " +
    'background and devnet stop/down stop it (devnet/README.md, "Rehearsing an upgrade").',
  run: async ({ values: v }) => {
    const stop = new AbortController();
    for (const s of ['SIGTERM', 'SIGINT'] as const) process.once(s, () => stop.abort());
    await supervise(
      homeOf(v.home),
      (line) => console.log(`${new Date().toISOString()} ${line}`),
      stop.signal,
    );
    return 0;
  },
});

/** `devnet ui`: the panel's link (--start starts it again), or the panel itself in this process (--serve). */
import { defineCommand, flag } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import type { UiJson } from '../../json/jsonShapes.js';
import { panelState, startPanel } from '../../panel/process.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

export const uiCommand = defineCommand({
  name: 'ui',
  summary: "print the panel's link (the devnet in a browser; --start starts it again)",
  options: {
    start: flag('start the panel if it is not running (devnet up --no-ui started none), then print'),
    serve: flag('run the panel in this terminal instead of in the background (Ctrl-C stops it)'),
    home: homeOption,
    json: jsonOption,
  },
  details:
    "Prints the link of the devnet's panel: every node's state, the blocks as they come, the validators, " +
    'charts and logs, live, with buttons for the node operations, transfers and adding a node. The link ' +
    "carries the panel's secret after # (never sent to a server): share it like a password. The panel " +
    'listens on 127.0.0.1 at P+1092 only.',
  run: async ({ values: v }) => {
    const home = homeOf(v.home);
    if (v.serve) return servePanelInForeground(home);
    const d = await Devnet.open(home);
    const link = v.start ? await startPanel(d) : (await panelState(d))?.link;
    const running = (await panelState(d))?.running === true;
    if (v.json) printJson<UiJson>({ url: link ?? null, running });
    else if (!running)
      out(`the panel is not running: devnet ui --start starts it${link ? ` (its link: ${link})` : ''}`);
    else out(link!);
    return running ? 0 : 1;
  },
});

/** `devnet ui --serve`: the panel in this process, until SIGTERM or SIGINT (or its devnet is gone). */
async function servePanelInForeground(home: string): Promise<number> {
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  // Loaded here: the panel's server (koa and its middleware) is the panel process's alone, and the
  // devnet command loads this file for every command (58 ms of its start).
  const { servePanel } = await import('../../ui/serve.js');
  const panel = await servePanel(home, log);
  await new Promise<void>((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => resolve());
    void panel.ended.then(resolve);
  });
  await panel.close();
  log('panel stopped');
  return 0;
}

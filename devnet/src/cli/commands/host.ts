/** `devnet host`: the threads runtime's host in the foreground (the runtime starts it in the background). */
import { defineCommand } from '@chain-devnet/kit/cli';
import { Layout } from '../../base/layout.js';
import { runHost } from '../../runtime/threads/host.js';
import { homeOf, homeOption } from '../commonOptions.js';

export const hostCommand = defineCommand({
  name: 'host',
  summary:
    "run a threads-runtime devnet's nodes as threads of this process (until SIGTERM, Ctrl-C or none is left)",
  options: { home: homeOption },
  details:
    'The threads runtime (devnet up --runtime threads) starts this in the background when a node is to start ' +
    'and none runs; it takes the commands of the others on <home>/threads/host.sock and ends once no node ' +
    'is left, or on SIGTERM after stopping every node as devnet stop would (devnet/README.md, "Runtimes").',
  run: async ({ values: v }) => {
    const stop = new AbortController();
    for (const s of ['SIGTERM', 'SIGINT'] as const) process.once(s, () => stop.abort());
    const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
    if (!(await runHost(new Layout(homeOf(v.home)), log, stop.signal)))
      log('another host runs this devnet: nothing to do');
    return 0;
  },
});

/** `devnet logs`: a node's log, or the task market's, to stdout (-f: until interrupted). */
import { defineCommand, flag, integer } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import { MARKET_SERVICE, WORKER_SERVICE } from '../../operations/market.js';
import { homeOf, homeOption } from '../commonOptions.js';

export const logsCommand = defineCommand({
  name: 'logs',
  summary: "a node's log (--tail N, -f to follow)",
  options: {
    follow: flag('keep printing new lines until interrupted', { short: 'f' }),
    tail: integer('print the last N lines', { min: 0, max: 10_000_000 }),
    home: homeOption,
  },
  positionals: [
    {
      name: 'NODE',
      description: "the node (default validator-0), or the task market's services: market, market-worker",
    },
  ],
  run: async ({ values: v, positionals }) => {
    const d = await Devnet.open(homeOf(v.home));
    const name = positionals[0] ?? d.nodes[0]!.name;
    // The market's services log like nodes (devnet logs market, devnet logs market-worker).
    if (d.spec.marketPort === null || ![MARKET_SERVICE, WORKER_SERVICE].includes(name)) d.node(name);
    const ac = new AbortController();
    process.once('SIGINT', () => ac.abort());
    await d.runtime
      .node(name)
      .logs({ follow: v.follow, tail: v.tail ?? null, signal: ac.signal }, process.stdout);
    return 0;
  },
});

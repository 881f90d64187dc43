/**
 * `devnet logs`: a node's log, or the task market's, to stdout (-f: until interrupted); with
 * --all, every log and the devnet's own operations on one timeline, filtered (logsAll.ts).
 */
import { defineCommand, flag, integer, list, text } from '@chain-devnet/kit/cli';
import { DevnetError } from '../../base/errors.js';
import { Devnet } from '../../devnet/devnet.js';
import { MARKET_SERVICE, WORKER_SERVICE } from '../../operations/market.js';
import { homeOf, homeOption } from '../commonOptions.js';
import { logsAll } from './logsAll.js';

export const logsCommand = defineCommand({
  name: 'logs',
  summary:
    "a node's log (--tail N, -f to follow); --all: every log and the devnet's operations on one timeline",
  options: {
    follow: flag('keep printing new lines until interrupted', { short: 'f' }),
    tail: integer('print the last N lines', { min: 0, max: 10_000_000 }),
    all: flag("every node's log, the market's and the devnet's own operations, merged in time order"),
    node: list('with --all: only these logs (node names, market, market-worker, devnet)', {
      valueName: 'NAMES',
    }),
    level: text('with --all: this level and graver (debug, info, warn, error)', { valueName: 'LEVEL' }),
    grep: text('with --all: only lines this regular expression matches', { valueName: 'RE' }),
    height: text('with --all: the time the chain spent at heights A..B (or H): every line within it', {
      valueName: 'A..B',
    }),
    since: text('with --all: from this time (ISO, or a duration before now: 10m)', { valueName: 'T' }),
    until: text('with --all: up to this time (ISO, or a duration before now)', { valueName: 'T' }),
    json: flag('with --all: one JSON object a line, its source named'),
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
    const ac = new AbortController();
    process.once('SIGINT', () => ac.abort());
    if (v.all) {
      if (positionals.length > 0)
        throw new DevnetError(
          'BAD_FLAG',
          `--all takes no NODE (got ${positionals[0]}): use --node ${positionals[0]}`,
        );
      await logsAll(d, { ...v, tail: v.tail ?? null, signal: ac.signal }, process.stdout);
      return 0;
    }
    const allOnly = (['node', 'level', 'grep', 'height', 'since', 'until'] as const).find(
      (k) => v[k] !== undefined,
    );
    if (allOnly !== undefined || v.json)
      throw new DevnetError('BAD_FLAG', `--${allOnly ?? 'json'} is for devnet logs --all`);
    const name = positionals[0] ?? d.nodes[0]!.name;
    // The market's services log like nodes (devnet logs market, devnet logs market-worker).
    if (d.spec.marketPort === null || ![MARKET_SERVICE, WORKER_SERVICE].includes(name)) d.node(name);
    await d.runtime
      .node(name)
      .logs({ follow: v.follow, tail: v.tail ?? null, signal: ac.signal }, process.stdout);
    return 0;
  },
});

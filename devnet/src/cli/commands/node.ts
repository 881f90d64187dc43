/** `devnet stop|start|kill|pause|resume|restart|disconnect|connect NODE`: one command per operation. */
import { type Command, defineCommand } from '@chain-devnet/node/cli';
import { Devnet } from '../../devnet.js';
import type { NodeOpJson } from '../../jsonShapes.js';
import { NODE_OPS, type NodeOp, nodeOp } from '../../operations/nodeOp.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

/** What each operation does to the node, as its help says. */
const SUMMARIES: Record<NodeOp, string> = {
  stop: 'graceful stop (SIGTERM; its data stays)',
  start: 'start a stopped node; it catches up from its peers',
  kill: 'SIGKILL (a crash)',
  pause: "freeze the node (SIGSTOP, or the engine's pause)",
  resume: 'unfreeze a paused node',
  restart: 'stop, then start',
  disconnect: 'cut the node off from every other node (its RPC stays reachable)',
  connect: 'undo disconnect',
};

function nodeCommand(op: NodeOp): Command {
  return defineCommand({
    name: op,
    summary: SUMMARIES[op],
    options: { home: homeOption, json: jsonOption },
    positionals: [{ name: 'NODE', description: 'which node (devnet status lists them)', required: true }],
    run: async ({ values: v, positionals }) => {
      const name = positionals[0]!;
      await nodeOp(await Devnet.open(homeOf(v.home)), op, name);
      if (v.json) printJson<NodeOpJson>({ node: name, done: op });
      else out(`${name}: ${op} done`);
      return 0;
    },
  });
}

export const nodeCommands: readonly Command[] = NODE_OPS.map(nodeCommand);

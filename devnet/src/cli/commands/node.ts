/**
 * `devnet stop|start|kill|pause|resume|restart|disconnect|connect NODE`: one command per operation.
 * `stop` and `start` without a node stop and start the whole devnet (operations/lifecycle.ts).
 */
import { type Command, defineCommand } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import type { NodeOpJson } from '../../json/jsonShapes.js';
import { startAll, stopAll } from '../../operations/lifecycle.js';
import { NODE_OPS, type NodeOp, nodeOp } from '../../operations/nodeOp.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';

/** What each operation does to the node, as its help says. */
const SUMMARIES: Record<NodeOp, string> = {
  stop: 'graceful stop of NODE (SIGTERM; its data stays), or without NODE of the whole devnet',
  start:
    'start a stopped node (it catches up from its peers), or without NODE the whole devnet where it stopped',
  kill: 'SIGKILL (a crash)',
  pause: "freeze the node (SIGSTOP, or the engine's pause)",
  resume: 'unfreeze a paused node',
  restart: 'stop, then start',
  disconnect: 'cut the node off from every other node (its RPC stays reachable)',
  connect: 'undo disconnect',
};

/** The operations that, without a node, apply to the whole devnet. */
const WHOLE: Partial<Record<NodeOp, (d: Devnet, json: boolean) => Promise<void>>> = {
  stop: async (d, json) => {
    const height = await stopAll(d, json ? () => undefined : progress);
    if (json) printJson<NodeOpJson>({ node: 'all', done: 'stop' });
    else out(`devnet stopped (at height ${height} or just above; devnet start, or devnet up, resumes it)`);
  },
  start: async (d, json) => {
    await startAll(d, json ? () => undefined : progress);
    if (json) printJson<NodeOpJson>({ node: 'all', done: 'start' });
    else out(`devnet started: ${d.nodes.length} nodes on ${d.state.runtime} (devnet status shows them)`);
  },
};

function nodeCommand(op: NodeOp): Command {
  const whole = WHOLE[op];
  return defineCommand({
    name: op,
    summary: SUMMARIES[op],
    options: { home: homeOption, json: jsonOption },
    positionals: [
      {
        name: 'NODE',
        description:
          whole === undefined
            ? 'which node (devnet status lists them)'
            : 'which node (none: every node and service)',
        required: whole === undefined,
      },
    ],
    run: async ({ values: v, positionals }) => {
      const name = positionals[0];
      const d = await Devnet.open(homeOf(v.home));
      if (name === undefined && whole !== undefined) {
        await whole(d, v.json);
        return 0;
      }
      if (name === undefined) throw new Error(`devnet ${op}: NODE is required`);
      await nodeOp(d, op, name);
      if (v.json) printJson<NodeOpJson>({ node: name, done: op });
      else out(`${name}: ${op} done`);
      return 0;
    },
  });
}

export const nodeCommands: readonly Command[] = NODE_OPS.map(nodeCommand);

/**
 * The operations on one running node (`devnet stop|start|kill|pause|resume|restart|disconnect|
 * connect NODE`, and the testkit's node handles): each through the node's handle of the devnet's
 * runtime, disconnect and connect through the faults written once for every runtime.
 */
import type { Devnet } from '../devnet/devnet.js';

export const NODE_OPS = [
  'stop',
  'start',
  'kill',
  'pause',
  'resume',
  'restart',
  'disconnect',
  'connect',
] as const;
export type NodeOp = (typeof NODE_OPS)[number];

export { ALL_NODES } from '../spec/ports.js';
/** The operations that `ALL_NODES` applies to. */
export const WHOLE_DEVNET_OPS: readonly NodeOp[] = ['stop', 'start'];

/** `op` on the node `name`, noted on the devnet's timeline (timeline/events.ts). */
export async function nodeOp(d: Devnet, op: NodeOp, name: string): Promise<void> {
  d.node(name);
  await d.events.during(op, `${op} ${name}`, { node: name }, () => run(d, op, name));
}

async function run(d: Devnet, op: NodeOp, name: string): Promise<void> {
  const node = d.runtime.node(name);
  switch (op) {
    case 'stop':
      return node.stop();
    case 'start':
      return d.startNode(name);
    case 'kill':
      return node.kill();
    case 'pause':
      return node.pause();
    case 'resume':
      return node.resume();
    case 'restart':
      await node.stop();
      return d.startNode(name);
    case 'disconnect':
      return d.faults.disconnect(name, await d.peers());
    case 'connect':
      return d.faults.connect(name, await d.peers());
  }
}

/**
 * The operations on one running node (`devnet stop|start|kill|pause|resume|restart|disconnect|
 * connect NODE`, and the testkit's node handles): each through the devnet's runtime.
 */
import type { Devnet } from '../devnet.js';

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

export async function nodeOp(d: Devnet, op: NodeOp, name: string): Promise<void> {
  d.node(name);
  const rt = d.runtime;
  switch (op) {
    case 'stop':
      return rt.stopNode(name);
    case 'start':
      return d.startNode(name);
    case 'kill':
      return rt.killNode(name);
    case 'pause':
      return rt.pauseNode(name);
    case 'resume':
      return rt.resumeNode(name);
    case 'restart':
      await rt.stopNode(name);
      return d.startNode(name);
    case 'disconnect':
      return rt.disconnectNode(name, await d.peers());
    case 'connect':
      return rt.connectNode(name, await d.peers());
  }
}

/**
 * The `chain-node start` arguments of a devnet node, for every runtime (and `devnet k8s`): where
 * its home is and where it listens, then the flags every runtime gives it (nodeStartFlags: fault
 * injection, the test-only Byzantine mode), so that a flag reaches the node on all of them.
 */
import { type NodeSpec, nodeStartFlags } from '../spec/networkSpec.js';

/** In a container the home is the volume at /data, and the node listens on every address of it. */
export const CONTAINER_HOME = '/data';

export function nodeStartArgs(node: NodeSpec, where: { readonly home: string } | 'container'): string[] {
  const flags = nodeStartFlags(node);
  if (where === 'container')
    return ['start', '--home', CONTAINER_HOME, '--host', '0.0.0.0', '--p2p-host', '0.0.0.0', ...flags];
  return ['start', '--home', where.home, ...flags];
}

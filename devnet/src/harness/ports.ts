/** A free --base-port for a devnet: every port of its plan (nodes, p2p, monitoring, panel, market) free now. */
import { freeBasePort } from '@chain-devnet/kit/ports';
import { allPorts } from '../spec/ports.js';

export function freeDevnetBase(nodes: number, monitoring = true, market = false): Promise<number> {
  return freeBasePort((base) => allPorts(base, nodes, monitoring, true, market));
}

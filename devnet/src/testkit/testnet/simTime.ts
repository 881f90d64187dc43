/**
 * The chain's time on the simulation (`net.time` of a SimTestnet, a scenario's `chain` steps): the
 * same ChainTime as on a devnet (operations/chainTime.ts), its host the simulated nodes. A node's
 * chain control is the node's own (SimNode.setChainControl: what its home's chain_control.json is
 * to a real node), its answer the node's own GET /chain/control through the in-process RPC, and
 * every wait of ChainTime on the simulation's clock (kit/wait's, which SimTestnet installs).
 */
import { RpcClient } from '@chain-devnet/node/client';
import type { SimCluster } from '@chain-devnet/node/sim';
import type { ChainTimeHost } from '../../operations/chainTime.js';

export function simTimeHost(cluster: SimCluster, epochLength: number): ChainTimeHost {
  return {
    names: () => cluster.names,
    nodeName: (name) => cluster.node(name).name,
    control: {
      of: async (name) => cluster.node(name).chainControl,
      write: async (name, control) => cluster.node(name).setChainControl(control),
      // Every node holds the same chain-wide control; the first's, without its skew.
      chainWide: async (names) => {
        const { clockSkewMs: _skew, ...wide } = cluster.node(names[0] ?? cluster.names[0]!).chainControl;
        return wide;
      },
    },
    client: async (name, timeoutMs) =>
      new RpcClient(cluster.rpcUrl(name), timeoutMs, {}, cluster.rpcTransport),
    epochLength: () => epochLength,
  };
}

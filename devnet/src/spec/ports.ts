/**
 * The port plan, stable and predictable from --base-port P (all published on 127.0.0.1 only):
 *   node i       RPC and /metrics on P + i, p2p on P + 1000 + i   (i < 64)
 *   Prometheus   P + 1090
 *   Grafana      P + 1091
 *   the panel    P + 1092 (devnet/src/ui)
 *   task market  P + 1093   (`--market`, docs/MARKET.md)
 * With the default P = 8000: validator-0 on 8000, its p2p on 9000, Prometheus on 9090.
 */
import { networkPorts } from '@chain-devnet/node/testnet';

// The nodes' plan is the node package's, shared with chain-node testnet.
export { type NodePorts, nodePorts } from '@chain-devnet/node/testnet';

/** At most 64 nodes: node 90's p2p port would be Prometheus's. */
export const MAX_NODES = 64;

/** The word that means every node where an operation has a whole-devnet form (devnet stop, start); no node takes it as its name. */
export const ALL_NODES = 'all';

export interface MonitoringPorts {
  readonly prometheus: number;
  readonly grafana: number;
}

export function monitoringPorts(basePort: number): MonitoringPorts {
  return { prometheus: basePort + 1090, grafana: basePort + 1091 };
}

/** The task market's HTTP port (docs/MARKET.md). */
export function marketPort(basePort: number): number {
  return basePort + 1093;
}

/** The panel (`devnet ui`), on 127.0.0.1 only. */
export function uiPort(basePort: number): number {
  return basePort + 1092;
}

/** Every port a devnet with `nodes` nodes and (optionally) monitoring, the panel and the market binds. */
export function allPorts(
  basePort: number,
  nodes: number,
  monitoring: boolean,
  ui = true,
  market = false,
): number[] {
  const m = monitoringPorts(basePort);
  return [
    ...networkPorts(basePort, nodes),
    ...(monitoring ? [m.prometheus, m.grafana] : []),
    ...(ui ? [uiPort(basePort)] : []),
    ...(market ? [marketPort(basePort)] : []),
  ];
}

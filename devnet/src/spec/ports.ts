/**
 * The port plan, stable and predictable from --base-port P (all published on 127.0.0.1 only):
 *   node i       RPC and /metrics on P + i, p2p on P + 1000 + i   (i < 64)
 *   Prometheus   P + 1090
 *   Grafana      P + 1091
 * With the default P = 8000: validator-0 on 8000, its p2p on 9000, Prometheus on 9090.
 */
export const MAX_NODES = 64;

export interface NodePorts {
  readonly rpcPort: number;
  readonly p2pPort: number;
}

export interface MonitoringPorts {
  readonly prometheus: number;
  readonly grafana: number;
}

export function nodePorts(basePort: number, index: number): NodePorts {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_NODES)
    throw new RangeError(`node index ${index} is outside 0..${MAX_NODES - 1}`);
  return { rpcPort: basePort + index, p2pPort: basePort + 1000 + index };
}

export function monitoringPorts(basePort: number): MonitoringPorts {
  return { prometheus: basePort + 1090, grafana: basePort + 1091 };
}

/** Every port a devnet with `nodes` nodes and (optionally) monitoring binds. */
export function allPorts(basePort: number, nodes: number, monitoring: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < nodes; i++) {
    const p = nodePorts(basePort, i);
    out.push(p.rpcPort, p.p2pPort);
  }
  if (monitoring) {
    const m = monitoringPorts(basePort);
    out.push(m.prometheus, m.grafana);
  }
  return out;
}

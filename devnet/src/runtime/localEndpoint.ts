/** Where a node of a one-machine runtime (process, threads, docker) is reached: its planned ports on 127.0.0.1. */
import type { NodeSpec } from '../spec/networkSpec.js';
import type { NodeEndpoint } from './runtime.js';

/** A service's published port, on a one-machine runtime. */
export function localServiceUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

export function localEndpoint(n: NodeSpec): NodeEndpoint {
  return {
    rpc: `http://127.0.0.1:${n.rpcPort}`,
    machine: null,
    published: `RPC 127.0.0.1:${n.rpcPort}, p2p 127.0.0.1:${n.p2pPort} (this machine only)`,
  };
}

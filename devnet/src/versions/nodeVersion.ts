/**
 * The version a running node says it is: `node_version` of its GET /upgrades (the node's
 * extension, docs/PROTOCOL.md), or "unknown" from a node that does not answer it (builds of this
 * repository from before that endpoint).
 * TODO(issue 28): read it with RpcClient once the node's routes table has the endpoint.
 */
export const UNKNOWN_NODE_VERSION = 'unknown';

export async function reportedVersion(rpc: string, timeoutMs = 2_000): Promise<string> {
  try {
    const res = await fetch(`${rpc}/upgrades`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) {
      await res.body?.cancel();
      return UNKNOWN_NODE_VERSION;
    }
    const body = (await res.json()) as { node_version?: unknown };
    return typeof body.node_version === 'string' ? body.node_version : UNKNOWN_NODE_VERSION;
  } catch {
    return UNKNOWN_NODE_VERSION;
  }
}

/**
 * What a running node says of its versions: its GET /upgrades (the node's extension,
 * docs/PROTOCOL.md), and its `node_version`, "unknown" from a node that does not answer it
 * (builds of this repository from before that endpoint).
 * TODO(issue 28): read it with RpcClient once the node's routes table has the endpoint.
 */
import { ANSWER_BOUNDS, JsonHttpClient } from '@chain-devnet/node/client';

export const UNKNOWN_NODE_VERSION = 'unknown';

/** The node's GET /upgrades answer, or null when it gives none (no such endpoint, not answering). */
export async function readUpgrades(rpc: string, timeoutMs = 2_000): Promise<unknown> {
  try {
    return await new JsonHttpClient(rpc, timeoutMs).get('/upgrades', ANSWER_BOUNDS.upgrades);
  } catch {
    return null;
  }
}

export async function reportedVersion(rpc: string): Promise<string> {
  const body = (await readUpgrades(rpc)) as { node_version?: unknown } | null;
  return typeof body?.node_version === 'string' ? body.node_version : UNKNOWN_NODE_VERSION;
}

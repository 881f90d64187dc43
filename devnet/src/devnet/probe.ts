/**
 * What `devnet status`, the panel and the testkit see of a node at one moment: its run state from
 * its runtime handle, how its last run ended, whether it is cut off, and, when it runs, what its
 * RPC and /metrics say (height, hash, peers, round, its validator's status, the version it
 * reports). A node that does not answer is reported down, never an error.
 */
import { RpcClient } from '@chain-devnet/node/client';
import { sampleOf } from '../monitoring/exposition.js';
import type { BlockedPeers } from '../runtime/blockedPeers.js';
import { type DiskFaultFiles, noDiskFault } from '../runtime/diskFaults.js';
import type { NetControl } from '../runtime/netConditions.js';
import type { NodeEndpoint, PeerInfo, Runtime } from '../runtime/runtime.js';
import type { NodeSpec } from '../spec/networkSpec.js';
import { reportedVersion } from '../versions/nodeVersion.js';
import { shortVersion } from '../versions/resolve.js';
import type { NodeDisk, NodeProbe } from './nodeStatus.js';

/** What a probe needs of the devnet (the Devnet has it; a narrow view keeps this file below it). */
export interface Probed {
  readonly runtime: Runtime;
  readonly faults: BlockedPeers;
  readonly disk: DiskFaultFiles;
  readonly net: NetControl;
  peers(): Promise<PeerInfo[]>;
  endpoint(name: string): Promise<NodeEndpoint>;
  versionOf(name: string): string;
}

/** How long a probe waits for each answer of a node (a busy node is reported down, not waited for). */
const PROBE_ANSWER_MS = 2_000;

export async function probeNode(d: Probed, n: NodeSpec): Promise<NodeProbe> {
  const handle = d.runtime.node(n.name);
  const [state, disconnected, endpoint, { faults, backend }, conditions] = await Promise.all([
    handle.state(),
    d.faults.isDisconnected(n.name),
    d.endpoint(n.name),
    d.disk.state(n.name),
    d.peers().then((all) => d.net.named(all)),
  ]);
  const c = conditions[n.name];
  const net =
    c === undefined || (c.links.length === 0 && c.deaf_to.length === 0 && c.zone === null) ? null : c;
  const disk: NodeDisk = {
    faults: noDiskFault(faults)
      ? null
      : {
          full: faults.full,
          write_delay_ms: faults.writeDelayMs,
          fsync_delay_ms: faults.fsyncDelayMs,
          lose_unsynced: faults.loseUnsynced,
        },
    backend,
    writable: null,
    error: null,
  };
  // Asked only of a node that is not running: the halt (3) and the refusal (4) are seen so.
  const exitCode = state === 'stopped' || state === 'absent' ? await handle.exitCode() : null;
  const down: NodeProbe = {
    status: {
      name: n.name,
      ...endpoint,
      state,
      exitCode,
      disconnected,
      up: false,
      height: null,
      lastHash: null,
      peers: null,
      round: null,
      validatorStatus: null,
      jailed: null,
      version: shortVersion(d.versionOf(n.name)),
      nodeVersion: null,
      disk,
      net,
    },
    metrics: null,
  };
  if (state !== 'running') return down;
  const client = new RpcClient(endpoint.rpc, PROBE_ANSWER_MS);
  try {
    const [status, validators, metrics, nodeVersion] = await Promise.all([
      client.status(),
      client.validators(),
      client.metrics(),
      reportedVersion(endpoint.rpc),
    ]);
    const me = validators.validators.find((v) => v.address === n.key.validator_address);
    return {
      status: {
        ...down.status,
        up: true,
        height: status.height,
        lastHash: status.last_hash,
        peers: sampleOf(metrics, 'chain_p2p_peers'),
        round: sampleOf(metrics, 'chain_consensus_round'),
        validatorStatus: me?.status ?? null,
        jailed: me?.is_jailed ?? null,
        nodeVersion,
        // An older build's status has no disk field.
        disk: { ...disk, writable: status.disk?.writable ?? null, error: status.disk?.error ?? null },
      },
      metrics,
    };
  } catch {
    return down;
  }
}

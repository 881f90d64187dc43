/** The node's settings, from flags (bin/chain-node.ts) or from tests, with the documented defaults. */
import { join } from 'node:path';
import { DEFAULT_RPC_OPTIONS } from '@chain-devnet/kit/http';
import type { LogFormat } from '@chain-devnet/kit/log';
import type { ByzantineMode } from '../faults/equivocator.js';
import type { FailPoint } from '../faults/failPoints.js';
import { DEFAULT_MEMPOOL_OPTIONS, type MempoolOptions } from '../mempool/mempool.js';

export interface NodeConfig {
  /** Data folder: store, snapshots, keys, genesis. */
  readonly home: string;
  readonly host: string;
  readonly port: number;
  readonly p2pPort: number;
  /** Address the p2p transport listens on (0.0.0.0 in containers). */
  readonly p2pHost: string;
  /**
   * The multiaddrs peers are told to reach this node at (identify, the DHT), in place of every
   * address it listens on; empty announces those. A container on two networks (the docker
   * runtime's) announces its name on the one its peers share: its other address is one they
   * cannot reach, and a dial that tries it first hangs until its deadline.
   */
  readonly p2pAnnounce: readonly string[];
  /** Multiaddrs (with /p2p/<peer id>) of peers to join through. */
  readonly bootstrap: readonly string[];
  /**
   * With an empty store, join from a peer's verified snapshot instead of replaying every block
   * (sync/state/stateSync.ts); ignored when the store has a chain.
   */
  readonly stateSync: boolean;
  /** Run without the peer-to-peer network (a one-node chain that talks to nobody). */
  readonly p2p: boolean;
  readonly genesisPath: string;
  /** Validator key file; null runs a node that follows but never produces. */
  readonly keyPath: string | null;
  /** Overrides the genesis `block_time_ms` for this node's production timer. */
  readonly blockTimeMs: number | null;
  readonly logFormat: LogFormat;
  readonly mempool: MempoolOptions;
  /** How often expired transactions are removed from the mempool. */
  readonly mempoolCleanupMs: number;
  readonly maxBodyBytes: number;
  /** Honour <home>/blocked_peers.json (--fault-injection: devnets and the partition tests). */
  readonly faultInjection: boolean;
  /** Record the consensus core into <home>/consensus-record.jsonl (--record-consensus). */
  readonly recordConsensus: boolean;
  /** TEST ONLY, devnet genesis only: a Byzantine validator (`--byzantine equivocate`); null is honest. */
  readonly byzantine: ByzantineMode | null;
  /** TEST ONLY, with faultInjection: where the node kills itself (crash tests); null never. */
  readonly failPoint: FailPoint | null;
}

export function defaultConfig(home: string): NodeConfig {
  return {
    home,
    host: '127.0.0.1',
    port: 8000,
    p2pPort: 9000,
    p2pHost: '127.0.0.1',
    p2pAnnounce: [],
    bootstrap: [],
    stateSync: false,
    p2p: true,
    genesisPath: join(home, 'genesis.json'),
    keyPath: null,
    blockTimeMs: null,
    logFormat: 'json',
    mempool: DEFAULT_MEMPOOL_OPTIONS,
    mempoolCleanupMs: 30_000,
    maxBodyBytes: DEFAULT_RPC_OPTIONS.maxBodyBytes,
    faultInjection: false,
    recordConsensus: false,
    byzantine: null,
    failPoint: null,
  };
}

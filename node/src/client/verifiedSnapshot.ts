/**
 * A node's state at a committed height, fetched over its RPC and verified before use (issue 27:
 * a devnet forked from a running network; docs/PROTOCOL.md, "Snapshot content"). The content is
 * the snapshot's gzip file (GET /snapshots/{h}/content, the one encoding state sync uses too);
 * it is trusted only once the checks of a state-syncing joiner hold (sync/state/snapshotTrust.ts):
 * its state root is block h's `state_root`, its last block hash is block h's, commit h holds only
 * valid precommits, block h+1 follows block h and its commit is signed by more than 2/3 of the
 * active set of the state at h; and, when the source's genesis is given, more than 1/3 of its
 * validators signed block h+1 and the state names that genesis (from protocol 1.2.0: a state below
 * it names none, which the answer says, since a sister chain of the same keys would pass too).
 */
import { blockFromJson, type ChainState, decodeSnapshot } from '../chain/index.js';
import { snapshotTrustProblem, type TrustedGenesis } from '../sync/index.js';

export type { TrustedGenesis };

import { commitFromJson } from '../p2p/messages.js';
import type { RpcClient } from './rpcClient.js';

export interface VerifiedSnapshot {
  /** The source's state after block `height` (its chain id, params and every entry). */
  readonly state: ChainState;
  readonly height: number;
  /** The hash of the snapshot's content (SHA-256 of the uncompressed bytes). */
  readonly hash: string;
  /** The hash of block `height`. */
  readonly blockHash: string;
  /** The source's height when asked (at least height + 1). */
  readonly sourceHeight: number;
  /**
   * The genesis hash the state names (protocol 1.2.0 and later; with a trusted genesis, that one's),
   * or null: a state below 1.2.0 names none, and nothing proves which genesis it is of.
   */
  readonly genesisHash: string | null;
}

/** Why a source's snapshot is not used: `what` names the step (a field, a check) that failed. */
export class SnapshotSourceError extends Error {
  override readonly name = 'SnapshotSourceError';
}

/**
 * Which snapshot to take: `height` when given (it must be kept by the source and followed by a
 * committed block), else the newest the source keeps below its height (block h+1 proves block h).
 */
export function chooseSnapshotHeight(
  kept: readonly number[],
  sourceHeight: number,
  height: number | null,
): number | string {
  const list = kept.length === 0 ? 'none' : [...kept].sort((a, b) => b - a).join(', ');
  if (height !== null) {
    if (!kept.includes(height)) return `the source keeps no snapshot at height ${height} (it keeps: ${list})`;
    if (height >= sourceHeight)
      return `block ${height + 1} is not committed on the source yet (its height is ${sourceHeight}): a snapshot is proven by the commit of the block after it`;
    return height;
  }
  const usable = kept.filter((h) => h < sourceHeight).sort((a, b) => b - a);
  if (usable.length === 0)
    return `the source keeps no snapshot below its height ${sourceHeight} yet (it keeps: ${list}); wait for one (every snapshot_interval or epoch_length blocks)`;
  return usable[0]!;
}

/**
 * Fetches and verifies the source's snapshot at `height` (or its newest usable one). `trusted`:
 * the source's genesis, whose validators anchor the check and whose hash the state must name;
 * without one, the validator set the snapshot itself names is taken on the source's word.
 */
export async function fetchVerifiedSnapshot(
  client: RpcClient,
  height: number | null,
  trusted: TrustedGenesis | null = null,
): Promise<VerifiedSnapshot> {
  const status = await client.status();
  const kept = (await client.snapshots()).snapshots;
  const h = chooseSnapshotHeight(
    kept.map((s) => s.height),
    status.height,
    height,
  );
  if (typeof h === 'string') throw new SnapshotSourceError(h);
  const listed = kept.find((s) => s.height === h)!;
  const { file, hash } = await client.snapshotContent(h);
  if (hash !== null && hash !== listed.hash)
    throw new SnapshotSourceError(
      `snapshot ${h}: the content's X-Snapshot-Hash ${hash} is not the hash /snapshots lists (${listed.hash})`,
    );
  let state: ChainState;
  try {
    state = decodeSnapshot(file, listed.hash).state;
  } catch (e) {
    throw new SnapshotSourceError(`snapshot ${h}: its content is refused: ${(e as Error).message}`);
  }
  if (state.height !== h)
    throw new SnapshotSourceError(`snapshot ${h}: its content is of height ${state.height}`);
  const block = blockFromJson(await client.block(h));
  const next = blockFromJson(await client.block(h + 1));
  const commit = commitFromJson(await client.commit(h));
  const nextCommit = commitFromJson(await client.commit(h + 1));
  if (!block.ok) throw new SnapshotSourceError(`block ${h}: ${block.reason}`);
  if (!next.ok) throw new SnapshotSourceError(`block ${h + 1}: ${next.reason}`);
  if (typeof commit === 'string') throw new SnapshotSourceError(`commit ${h}: ${commit}`);
  if (typeof nextCommit === 'string') throw new SnapshotSourceError(`commit ${h + 1}: ${nextCommit}`);
  const problem = snapshotTrustProblem(trusted, {
    state,
    block: block.block,
    commit,
    next: next.block,
    nextCommit,
  });
  if (problem !== null) throw new SnapshotSourceError(`snapshot ${h} is not proven: ${problem}`);
  return {
    state,
    height: h,
    hash: listed.hash,
    blockHash: state.lastBlockHash,
    sourceHeight: status.height,
    genesisHash: state.genesisHash,
  };
}

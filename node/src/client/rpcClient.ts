/**
 * A small client of the node's RPC, used by the CLIs, the devnet, tests and the end-to-end
 * suite: one typed method per endpoint, answering the shapes of rpc/answers.ts, its URL built
 * from the route table the server registers (rpc/routes.ts). It parses the
 * JSON that the node writes (integers of any size stay exact: big ones come back as bigint).
 * Each answer is read up to its route's bound (ANSWER_BOUNDS), so that whatever answers at the
 * URL (a fork's source, a node of someone else's) cannot make a caller read without end.
 */

import { TimeoutError, waitFor } from '@chain-devnet/kit/wait';
import { MAX_SNAPSHOT_FILE_BYTES, type Tx, type TxJson, txToJson } from '../chain/index.js';
import type {
  BalanceAnswer,
  BlockAnswer,
  CommitAnswer,
  DelegationsAnswer,
  NetProbeAnswer,
  ReceiptAnswer,
  RewardsAnswer,
  SnapshotAnswer,
  SnapshotsAnswer,
  StatusAnswer,
  SubmitAnswer,
  SupplyAnswer,
  UnbondingAnswer,
  UpgradesAnswer,
  ValidatorsAnswer,
} from '../rpc/answers.js';
import { type RouteName, type RouteParams, RPC_ROUTES, routePath } from '../rpc/routes.js';
import { JsonHttpClient } from './jsonHttp.js';

export { RpcAnswerTooLargeError, RpcError, RpcUnreachableError } from './jsonHttp.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * The most bytes the client reads of each route's answer (past it: RpcAnswerTooLargeError). An
 * object of a few fields (status, a balance, a receipt, the supply, one snapshot's record) gets
 * 1 MiB, a thousand times what the node writes. A block and a commit get 32 MiB: the node
 * gossips neither over 4 MiB (p2p/protocol.ts, MAX_MESSAGE_BYTES), and their JSON (hex, field
 * names) is at most about three times the bytes. Lists that grow with the chain (validators, a
 * delegator's delegations, rewards by epoch, unbonding entries; the evidence, 1,000 pairs; the
 * metrics page, a series per peer and validator) get 32 MiB too. A snapshot's file is bounded by
 * what a node keeps (MAX_SNAPSHOT_FILE_BYTES). The compiler checks that every route has one.
 */
export const ANSWER_BOUNDS: Readonly<Record<RouteName, number>> = {
  status: 1 * MIB,
  block: 32 * MIB,
  commit: 32 * MIB,
  balance: 1 * MIB,
  validators: 32 * MIB,
  delegations: 32 * MIB,
  rewards: 32 * MIB,
  unbonding: 32 * MIB,
  supply: 1 * MIB,
  snapshots: 1 * MIB,
  snapshot: 1 * MIB,
  snapshotContent: MAX_SNAPSHOT_FILE_BYTES,
  evidence: 32 * MIB,
  metrics: 32 * MIB,
  sendTx: 1 * MIB,
  receipt: 1 * MIB,
  sendTxs: 1 * MIB,
  upgrades: 1 * MIB,
  netProbe: 1 * MIB,
};

/** How long a snapshot content request answered 503 Busy is asked again (another client's file is being sent). */
export const SNAPSHOT_BUSY_WITHIN_MS = 120_000;

export class RpcClient extends JsonHttpClient {
  /** Route `name` of the node's table (rpc/routes.ts) with its parameters; `body` for a POST. */
  private route<T, N extends RouteName = RouteName>(
    name: N,
    params: RouteParams<N>,
    body?: unknown,
  ): Promise<T> {
    const path = routePath(name, params);
    const bound = ANSWER_BOUNDS[name];
    return RPC_ROUTES[name].method === 'POST' ? this.post<T>(path, body, bound) : this.get<T>(path, bound);
  }

  status(): Promise<StatusAnswer> {
    return this.route('status', {});
  }

  block(height: number): Promise<BlockAnswer> {
    return this.route('block', { height });
  }

  /** GET /block/{height}/commit: an extension of this node (docs/PROTOCOL.md). */
  commit(height: number): Promise<CommitAnswer> {
    return this.route('commit', { height });
  }

  balance(address: string): Promise<BalanceAnswer> {
    return this.route('balance', { address });
  }

  validators(): Promise<ValidatorsAnswer> {
    return this.route('validators', {});
  }

  delegations(delegator: string): Promise<DelegationsAnswer> {
    return this.route('delegations', { address: delegator });
  }

  rewards(delegator: string): Promise<RewardsAnswer> {
    return this.route('rewards', { address: delegator });
  }

  unbonding(delegator: string): Promise<UnbondingAnswer> {
    return this.route('unbonding', { address: delegator });
  }

  /** GET /supply: an extension of this node (docs/PROTOCOL.md). */
  supply(): Promise<SupplyAnswer> {
    return this.route('supply', {});
  }

  /** GET /upgrades: an extension of this node (docs/PROTOCOL.md): versions and upgrade plans. */
  upgrades(): Promise<UpgradesAnswer> {
    return this.route('upgrades', {});
  }

  snapshots(): Promise<SnapshotsAnswer> {
    return this.route('snapshots', {});
  }

  snapshot(height: number): Promise<SnapshotAnswer> {
    return this.route('snapshot', { height });
  }

  /**
   * GET /snapshots/{height}/content, an extension (docs/PROTOCOL.md): the snapshot's gzip file
   * as the node stores it, and the hash the node gives it (X-Snapshot-Hash; to be checked, not
   * trusted). At most its bound (MAX_SNAPSHOT_FILE_BYTES) is read. The node serves one such answer at a
   * time and tells a second to come back (503 Busy, Retry-After): asked again as told, for at most
   * `busyWithinMs` (two forks of one source at once both get their file).
   */
  async snapshotContent(
    height: number,
    busyWithinMs = SNAPSHOT_BUSY_WITHIN_MS,
  ): Promise<{ file: Uint8Array; hash: string | null }> {
    const { bytes, headers } = await this.whileBusy(busyWithinMs, () =>
      this.requestBytes(
        RPC_ROUTES.snapshotContent.method,
        routePath('snapshotContent', { height }),
        undefined,
        ANSWER_BOUNDS.snapshotContent,
      ),
    );
    return { file: bytes, hash: headers.get('x-snapshot-hash') };
  }

  /** The Prometheus text exposition of /metrics. */
  metrics(): Promise<string> {
    return this.request(
      RPC_ROUTES.metrics.method,
      routePath('metrics', {}),
      undefined,
      ANSWER_BOUNDS.metrics,
    );
  }

  async sendTx(tx: Tx | TxJson): Promise<SubmitAnswer> {
    const json = 'tx_type' in tx ? tx : txToJson(tx);
    return this.route('sendTx', {}, json);
  }

  /** POST /tx/send_batch (extension): up to 256 transactions, each one's answer in order. */
  async sendTxs(txs: readonly (Tx | TxJson)[]): Promise<SubmitAnswer[]> {
    return this.route(
      'sendTxs',
      {},
      txs.map((tx) => ('tx_type' in tx ? tx : txToJson(tx))),
    );
  }

  /**
   * POST /net/probe (TEST ONLY extension, docs/PROTOCOL.md): the node's link to `peer` measured
   * through its conditions, `bytes` each way (0: the round trip only). A node without
   * --fault-injection answers 404.
   */
  netProbe(peer: string, bytes = 0): Promise<NetProbeAnswer> {
    return this.route('netProbe', {}, { peer, bytes });
  }

  receipt(hash: string): Promise<ReceiptAnswer> {
    return this.route('receipt', { hash });
  }

  /**
   * Polls the receipt until it is confirmed or failed, or the time is up: then the last one seen
   * (pending), or the wait's error when the node never gave one.
   */
  async waitForReceipt(hash: string, timeoutMs = 30_000, pollMs = 200): Promise<ReceiptAnswer> {
    let last: ReceiptAnswer | null = null;
    try {
      return await waitFor(
        `the receipt of ${hash} from ${this.baseUrl}`,
        timeoutMs,
        async () => {
          last = await this.receipt(hash);
          return last.status === 'pending' ? null : last;
        },
        { pollMs },
      );
    } catch (e) {
      if (e instanceof TimeoutError && last !== null) return last;
      throw e;
    }
  }
}

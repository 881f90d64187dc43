/**
 * A small client of the node's RPC, used by the CLIs, the devnet, tests and the end-to-end
 * suite: one typed method per endpoint, answering the shapes of rpc/answers.ts. It parses the
 * JSON that the node writes (integers of any size stay exact: big ones come back as bigint).
 */
import { type Tx, type TxJson, txToJson } from '../chain/index.js';
import { TimeoutError, waitFor } from '../harness/wait.js';
import type {
  BalanceAnswer,
  BlockAnswer,
  CommitAnswer,
  DelegationsAnswer,
  ReceiptAnswer,
  RewardsAnswer,
  SnapshotAnswer,
  SnapshotsAnswer,
  StatusAnswer,
  SubmitAnswer,
  SupplyAnswer,
  UnbondingAnswer,
  ValidatorsAnswer,
} from '../rpc/answers.js';
import { JsonHttpClient } from './jsonHttp.js';

export { RpcError } from './jsonHttp.js';

export class RpcClient extends JsonHttpClient {
  status(): Promise<StatusAnswer> {
    return this.get('/status');
  }

  block(height: number): Promise<BlockAnswer> {
    return this.get(`/block/${height}`);
  }

  /** GET /block/{height}/commit: an extension of this node (docs/PROTOCOL.md). */
  commit(height: number): Promise<CommitAnswer> {
    return this.get(`/block/${height}/commit`);
  }

  balance(address: string): Promise<BalanceAnswer> {
    return this.get(`/balance/${address}`);
  }

  validators(): Promise<ValidatorsAnswer> {
    return this.get('/validators');
  }

  delegations(delegator: string): Promise<DelegationsAnswer> {
    return this.get(`/delegator/${delegator}/delegations`);
  }

  rewards(delegator: string): Promise<RewardsAnswer> {
    return this.get(`/delegator/${delegator}/rewards`);
  }

  unbonding(delegator: string): Promise<UnbondingAnswer> {
    return this.get(`/delegator/${delegator}/unbonding`);
  }

  /** GET /supply: an extension of this node (docs/PROTOCOL.md). */
  supply(): Promise<SupplyAnswer> {
    return this.get('/supply');
  }

  snapshots(): Promise<SnapshotsAnswer> {
    return this.get('/snapshots');
  }

  snapshot(height: number): Promise<SnapshotAnswer> {
    return this.get(`/snapshots/${height}`);
  }

  /** The Prometheus text exposition of /metrics. */
  metrics(): Promise<string> {
    return this.request('GET', '/metrics');
  }

  async sendTx(tx: Tx | TxJson): Promise<SubmitAnswer> {
    const json = 'tx_type' in tx ? tx : txToJson(tx);
    return this.post<SubmitAnswer>('/tx/send', json);
  }

  receipt(hash: string): Promise<ReceiptAnswer> {
    return this.get(`/tx/${hash}/receipt`);
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

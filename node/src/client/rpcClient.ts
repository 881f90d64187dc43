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
import { parseJsonExact } from '../util/jsonParse.js';

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly url: string,
  ) {
    super(`${url}: HTTP ${status} ${detail}`);
  }
}

export class RpcClient {
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Any JSON path, for what has no method of its own (an odd path a test sends on purpose). */
  async get<T>(path: string): Promise<T> {
    return parseJsonExact(await this.request('GET', path)) as T;
  }

  /** The answer's text; an RpcError with the {detail} for any status but 2xx. */
  private async request(method: string, path: string, body?: unknown): Promise<string> {
    const url = `${this.baseUrl}${path}`;
    // A referenced timer, not AbortSignal.timeout (whose timer is unreferenced): a connection
    // that a proxy accepts and then drops mid-response (Docker's port forwarding while the
    // container starts) can leave the body read pending with nothing else keeping the process
    // alive, and the caller would vanish without an error.
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error(`no answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const init: RequestInit = { method, signal: abort.signal };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, init);
      text = await res.text();
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) {
      let detail = text;
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new RpcError(res.status, detail, url);
    }
    return text;
  }

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
    return parseJsonExact(await this.request('POST', '/tx/send', json)) as SubmitAnswer;
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

/**
 * The admission pipeline of the node: a transaction from the RPC or from gossip is decoded and
 * queued at once (AdmissionQueue.offer: the RPC's prechecked against verified state first), then
 * waits for a flush that verifies the signatures of everything waiting in one batch and admits in
 * arrival order; the caller's promise settles then. A flush runs on the next turn of the event
 * loop (setImmediate), so what arrives in one turn (a burst of requests, several gossip messages)
 * shares one batch, and nothing waits longer when the node is idle. A flush takes at most
 * `maxBatch` transactions, so one batch does not hold the event loop (consensus timers) for long;
 * the rest go in the next turn.
 */
import { type ChainState, type Tx, txFromJson, txHash } from '../chain/index.js';
import type { AdmissionQueue } from '../mempool/admissionQueue.js';
import type { Mempool } from '../mempool/mempool.js';
import type { NodeMetrics } from '../metrics/metrics.js';
import type { BatchOutcome, SubmitOutcome } from '../rpc/backend.js';

/**
 * The outcome of a batch of transactions (a gossip message, a POST /tx/send_batch body); once
 * checked, `admitted` holds its transactions this node admitted (answered `received`), each once,
 * in order.
 */
export type PeerTxsOutcome =
  | Extract<BatchOutcome, { kind: 'malformed' }>
  | (Extract<BatchOutcome, { kind: 'checked' }> & { admitted: Tx[] });

export interface Waiter {
  readonly fromRpc: boolean;
  readonly settle: (outcome: SubmitOutcome) => void;
  readonly fail: (error: unknown) => void;
}

export interface AdmissionDeps {
  readonly queue: AdmissionQueue<Waiter>;
  readonly mempool: Mempool;
  readonly metrics: NodeMetrics;
  /** The last committed state (throws while the node is not ready). */
  readonly state: () => ChainState;
  /** Called once per flush with the transactions admitted from the RPC in it, to gossip them. */
  readonly onAdmittedFromRpc: (txs: readonly Tx[]) => void;
  readonly maxBatch: number;
  /** Runs `work` on a later turn of the event loop. */
  readonly schedule?: (work: () => void) => void;
}

/** Large enough to share the batch's cost, small enough to keep a flush to tens of milliseconds. */
export const DEFAULT_MAX_BATCH = 64;

type Parsed = { ok: true; tx: Tx; hash: string } | { ok: false; outcome: SubmitOutcome };

export class Admission {
  private scheduled = false;
  private readonly schedule: (work: () => void) => void;

  constructor(private readonly deps: AdmissionDeps) {
    this.schedule = deps.schedule ?? ((work) => void setImmediate(work));
  }

  /** Transactions waiting for the next flush. */
  get waiting(): number {
    return this.deps.queue.count;
  }

  /** One transaction (the RPC's): settles when it is admitted or refused. */
  submit(input: unknown, size: number, fromRpc: boolean): Promise<SubmitOutcome> {
    const state = this.deps.state();
    const parsed = this.parse(input, state);
    if (!parsed.ok) return Promise.resolve(parsed.outcome);
    return this.offer(parsed.tx, parsed.hash, size, state, fromRpc);
  }

  /**
   * The transactions of one gossip message or RPC batch, `size` its bytes. All are decoded first:
   * one malformed transaction makes the whole batch malformed, and none of it is admitted.
   * Each counts an equal share of the batch's bytes against the mempool's byte bound, and
   * each has its signature checked (unless already pooled), whatever else refuses it, so that
   * a message's verdict knows of any forgery in it. The RPC's are prechecked against verified
   * state and gossiped once admitted, as one sent alone.
   */
  async submitAll(inputs: readonly unknown[], size: number, fromRpc = false): Promise<PeerTxsOutcome> {
    const state = this.deps.state();
    const parsed: Parsed[] = [];
    for (const [i, input] of inputs.entries()) {
      const p = this.parse(input, state);
      if (!p.ok && p.outcome.kind === 'malformed')
        return {
          kind: 'malformed',
          reason: inputs.length === 1 ? p.outcome.reason : `transaction ${i}: ${p.outcome.reason}`,
        };
      parsed.push(p);
    }
    const share = Math.ceil(size / Math.max(1, inputs.length));
    const outcomes = await Promise.all(
      parsed.map((p) => (p.ok ? this.offer(p.tx, p.hash, share, state, fromRpc) : p.outcome)),
    );
    // Each admitted transaction once, though the message may carry copies of it.
    const admitted = new Map<string, Tx>();
    for (const [i, p] of parsed.entries())
      if (p.ok && outcomes[i]!.kind === 'received') admitted.set(p.hash, p.tx);
    return { kind: 'checked', outcomes, admitted: [...admitted.values()] };
  }

  private parse(input: unknown, state: ChainState): Parsed {
    const parsed = txFromJson(input);
    if (!parsed.ok) return { ok: false, outcome: { kind: 'malformed', reason: parsed.reason } };
    const chainId = state.params.chainId;
    const hash = txHash(parsed.tx, chainId);
    if (parsed.chainId !== undefined && parsed.chainId !== chainId)
      return {
        ok: false,
        outcome: this.rejected(
          hash,
          'WRONG_CHAIN',
          `wrong chain: the transaction is for ${parsed.chainId}, this node is on ${chainId}`,
        ),
      };
    return { ok: true, tx: parsed.tx, hash };
  }

  private offer(
    tx: Tx,
    hash: string,
    size: number,
    state: ChainState,
    fromRpc: boolean,
  ): Promise<SubmitOutcome> {
    return new Promise<SubmitOutcome>((settle, fail) => {
      const pre = this.deps.queue.offer(tx, hash, size, state, { fromRpc, settle, fail }, fromRpc);
      if (!pre.ok) {
        settle(this.rejected(hash, pre.code, pre.message));
        return;
      }
      if (!this.scheduled) {
        this.scheduled = true;
        this.schedule(() => this.flush());
      }
    });
  }

  /** Verifies and admits what waits (up to maxBatch), settles each caller, gossips the RPC's. */
  private flush(): void {
    this.scheduled = false;
    const { queue, metrics, mempool } = this.deps;
    const taken = queue.take(this.deps.maxBatch);
    if (queue.count > 0) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
    if (taken.length === 0) return;
    let flushed: ReturnType<typeof queue.admit>;
    try {
      flushed = queue.admit(taken, this.deps.state());
    } catch (e) {
      // Nobody may wait forever: the callers (the RPC answers 500, gossip rejects) see the error.
      for (const entry of taken) for (const tag of entry.tags) tag.fail(e);
      return;
    }
    const admittedFromRpc: Tx[] = [];
    for (const { entry, result } of flushed) {
      // Identical copies (same hash) waited together: each caller gets the one answer.
      const outcome: SubmitOutcome = result.ok
        ? { kind: 'received', hash: entry.hash }
        : this.rejected(entry.hash, result.code, result.message);
      if (result.ok && entry.tags.some((t) => t.fromRpc)) admittedFromRpc.push(entry.tx);
      for (const tag of entry.tags) tag.settle(outcome);
    }
    metrics.mempoolSize.set(mempool.size);
    metrics.mempoolBytes.set(mempool.byteSize);
    if (admittedFromRpc.length > 0) this.deps.onAdmittedFromRpc(admittedFromRpc);
  }

  private rejected(hash: string, code: string, message: string): SubmitOutcome {
    this.deps.metrics.mempoolRejections.inc({ reason: code });
    return { kind: 'rejected', hash, code, message };
  }
}

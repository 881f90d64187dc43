/**
 * Sends the planned payouts (docs/MARKET.md, "Payouts exactly once"). A plan is on disk, signed,
 * before anything is sent, so sending is only ever sending the same bytes again: after a restart
 * every planned payout not yet in a block is sent again as it is (same tx_hash). A second
 * payment is impossible twice over: the node refuses a duplicate, and the escrow's nonce lets
 * only one transaction per nonce execute.
 *
 * At most `window` payouts are out at once, the lowest nonces first (a node queues at most 64
 * per sender); each is sent again after `resendMs` until the follower sees it in a block.
 *
 * Test-only crash point: with `crashAfterSends` set, the process SIGKILLs itself right after
 * that many payouts were received by the node (faults/marketCrash.ts).
 */
import type { RpcClient } from '../client/rpcClient.js';
import { crashIfDue } from '../faults/marketCrash.js';
import type { Logger } from '../util/logger.js';
import type { MarketService } from './service.js';

export interface PayerOptions {
  readonly window: number;
  readonly resendMs: number;
  readonly crashAfterSends: number | null;
}

export class Payer {
  private readonly sentAt = new Map<string, number>();
  private sends = 0;
  private busy: Promise<void> | null = null;

  constructor(
    private readonly rpc: RpcClient,
    private readonly service: MarketService,
    private readonly logger: Logger,
    private readonly opts: PayerOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends what is due; a call while one runs joins it. */
  run(): Promise<void> {
    this.busy ??= this.send().finally(() => {
      this.busy = null;
    });
    return this.busy;
  }

  private async send(): Promise<void> {
    const due = this.service.unpaid().slice(0, this.opts.window);
    const live = new Set(due.map((p) => p.tx_hash));
    for (const hash of this.sentAt.keys()) if (!live.has(hash)) this.sentAt.delete(hash);
    for (const p of due) {
      const last = this.sentAt.get(p.tx_hash);
      if (last !== undefined && this.now() - last < this.opts.resendMs) continue;
      let answer: Awaited<ReturnType<RpcClient['sendTx']>>;
      try {
        answer = await this.rpc.sendTx(p.tx);
      } catch (e) {
        this.logger.warn('sending a payout failed; it is sent again later', {
          tx_hash: p.tx_hash,
          error: (e as Error).message,
        });
        return;
      }
      this.sentAt.set(p.tx_hash, this.now());
      if (answer.status === 'rejected')
        // Already pending, or already in a block (its nonce used): the follower will see it.
        this.logger.debug('a payout was refused by the node', { tx_hash: p.tx_hash, error: answer.error });
      else {
        this.sends++;
        crashIfDue(this.opts.crashAfterSends, this.sends, this.logger);
      }
    }
  }
}

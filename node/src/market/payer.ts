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

import type { Logger } from '@chain-devnet/kit/log';
import { type RpcClient, RpcError } from '../client/rpcClient.js';
import { crashIfDue } from '../faults/marketCrash.js';
import type { MarketService } from './service.js';
import type { PayoutRecord } from './types.js';

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
      if (answer.status === 'rejected') await this.refused(p, answer.error ?? '');
      else {
        this.sends++;
        crashIfDue(this.opts.crashAfterSends, this.sends, this.logger);
      }
    }
  }

  /**
   * A refusal. Already pending is the usual one (a resend). A nonce below the escrow's account
   * nonce is spent: by this payout (in a block the follower will see, or saw without knowing
   * it) or by another transaction; the service tells which from the payout's receipt, read after
   * the account nonce. Anything else is worth a warning: the payout waits.
   */
  private async refused(p: PayoutRecord, error: string): Promise<void> {
    if (error.includes('already pending')) {
      this.logger.debug('a payout is already pending at the node', { tx_hash: p.tx_hash });
      return;
    }
    try {
      const accountNonce = (await this.rpc.balance(this.service.escrow.address)).nonce;
      if (p.nonce < accountNonce) {
        const receipt = await this.rpc.receipt(p.tx_hash).catch((e: unknown) => {
          if (e instanceof RpcError && e.status === 404) return null;
          throw e;
        });
        await this.service.payoutNonceSpent(p.tx_hash, receipt);
        return;
      }
    } catch (e) {
      this.logger.warn('checking a refused payout failed; it is sent again later', {
        tx_hash: p.tx_hash,
        error: (e as Error).message,
      });
      return;
    }
    this.logger.warn('a payout was refused by the node; it is sent again later', {
      tx_hash: p.tx_hash,
      nonce: p.nonce,
      error,
    });
  }
}

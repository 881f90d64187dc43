/**
 * Follows the chain through a node's RPC, block by block from the market's durable cursor: for
 * each block it fetches what the market needs to judge it (the receipts of transactions to and
 * from the escrow and of SUBMIT_RESULTs naming the market's tasks; the commit's signers and
 * their reward addresses when such a SUBMIT_RESULT is there) and hands it to the service, which
 * applies it in one batch with the new cursor. A block is final once the node serves it
 * (instant finality), so nothing is ever undone; a failed fetch is tried again at the next poll,
 * from the same block.
 */
import { blockFromJson, txHash } from '../chain/index.js';
import type { RpcClient } from '../client/rpcClient.js';
import { RpcError } from '../client/rpcClient.js';
import type { Logger } from '../util/logger.js';
import type { FollowedBlock, FollowedTx, MarketService } from './service.js';

export interface FollowerOptions {
  readonly pollMs: number;
  /** Blocks applied per poll at most (a market far behind catches up in steps). */
  readonly maxBlocksPerPoll: number;
}

export class Follower {
  /** The node's height at the last poll that reached it; null until one did. */
  nodeHeight: number | null = null;
  /** Whether the last poll reached the node. */
  reachable = false;
  lastError: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly rpc: RpcClient,
    private readonly service: MarketService,
    private readonly logger: Logger,
    private readonly opts: FollowerOptions,
    /** After each poll that applied blocks (the payer sends then). */
    private readonly onAdvance: () => void = () => undefined,
  ) {}

  /** Blocks between the node's tip and the market's cursor. */
  get lag(): number {
    return this.nodeHeight === null ? 0 : Math.max(0, this.nodeHeight - this.service.books.cursor);
  }

  start(): void {
    const tick = async () => {
      this.timer = null;
      if (this.stopped) return;
      this.running = this.poll();
      await this.running;
      if (!this.stopped) this.timer = setTimeout(tick, this.opts.pollMs);
    };
    void tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
  }

  /** One poll: the node's height, then the blocks after the cursor (at most maxBlocksPerPoll). */
  async poll(): Promise<void> {
    try {
      this.nodeHeight = (await this.rpc.status()).height;
      this.reachable = true;
      this.lastError = null;
      let applied = 0;
      while (this.service.books.cursor < this.nodeHeight && applied < this.opts.maxBlocksPerPoll) {
        await this.service.applyBlock(await this.fetch(this.service.books.cursor + 1));
        applied++;
      }
      if (applied > 0) this.onAdvance();
    } catch (e) {
      const message = (e as Error).message;
      if (!(e instanceof RpcError)) this.reachable = false;
      if (message !== this.lastError)
        this.logger.warn('following the chain failed; trying again', { error: message });
      this.lastError = message;
    }
  }

  private async outcome(hash: string): Promise<'confirmed' | 'failed'> {
    const r = await this.rpc.receipt(hash);
    if (r.status === 'pending' || r.block_height === null)
      throw new Error(`the receipt of ${hash}, in a block, reads ${r.status}`);
    return r.status;
  }

  async fetch(height: number): Promise<FollowedBlock> {
    const json = await this.rpc.block(height);
    const parsed = blockFromJson(json);
    if (!parsed.ok) throw new Error(`block ${height} is not one the market can read: ${parsed.reason}`);
    const escrow = this.service.escrow.address;
    let needSigners = false;
    const txs: FollowedTx[] = [];
    for (const tx of parsed.block.txs) {
      const hash = txHash(tx, this.service.escrow.chainId);
      const result = tx.type === 'SUBMIT_RESULT' && this.service.knows(tx.payload.taskId!);
      const mine = tx.from === escrow || (tx.type === 'TRANSFER' && tx.to === escrow);
      needSigners ||= result;
      txs.push({ tx, hash, outcome: result || mine ? await this.outcome(hash) : null });
    }
    let signers: FollowedBlock['signers'] = null;
    if (needSigners) {
      const [commit, { validators }] = await Promise.all([this.rpc.commit(height), this.rpc.validators()]);
      const rewards = new Map(validators.map((v) => [v.address, v.reward_address]));
      signers = commit.signatures.map((s) => {
        const reward = rewards.get(s.validator);
        if (reward === undefined)
          throw new Error(`signer ${s.validator} of block ${height} is not in /validators`);
        return { validator: s.validator, reward_address: reward };
      });
    }
    return { height, timestamp: parsed.block.header.timestamp, txs, signers };
  }
}

/**
 * Follows the chain through a node's RPC, block by block from the market's durable cursor: for
 * each block it fetches what the market needs to judge it (the receipts of transactions to and
 * from the escrow and of SUBMIT_RESULTs naming the market's tasks; the commit's signers and
 * their reward addresses when such a SUBMIT_RESULT is there) and hands it to the service, which
 * applies it in one batch with the new cursor. A block is final once the node serves it
 * (instant finality), so nothing is ever undone; a failed fetch is tried again at the next poll,
 * from the same block.
 */

import type { Logger } from '@chain-devnet/kit/log';
import { blockFromJson, txHash } from '../chain/index.js';
import type { RpcClient } from '../client/rpcClient.js';
import { RpcError } from '../client/rpcClient.js';
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
      const judged = commitSigners(commit.signatures, validators);
      for (const v of judged.repeated)
        this.logger.warn('a validator signs a commit more than once: counted once', { height, validator: v });
      for (const v of judged.unknown)
        this.logger.warn('a signer of a commit is not a validator: left out of the validators share', {
          height,
          validator: v,
        });
      signers = judged.signers;
    }
    return { height, timestamp: parsed.block.header.timestamp, txs, signers };
  }
}

/**
 * The validators a commit pays (docs/MARKET.md, "The split"): each validator once, in the order
 * of its first signature, and only a signer that is a validator (GET /validators) with a reward
 * address; the others are named, to be logged, and left out. Whatever a node serves, one
 * validator never takes two shares, and an unknown signer never halts the market. Pure.
 */
export function commitSigners(
  signatures: readonly { readonly validator: string }[],
  validators: readonly { readonly address: string; readonly reward_address: string }[],
): {
  signers: { validator: string; reward_address: string }[];
  repeated: string[];
  unknown: string[];
} {
  const rewards = new Map(validators.map((v) => [v.address, v.reward_address]));
  const seen = new Set<string>();
  const out = {
    signers: [] as { validator: string; reward_address: string }[],
    repeated: [] as string[],
    unknown: [] as string[],
  };
  for (const { validator } of signatures) {
    if (seen.has(validator)) {
      out.repeated.push(validator);
      continue;
    }
    seen.add(validator);
    const reward = rewards.get(validator);
    if (reward === undefined) out.unknown.push(validator);
    else out.signers.push({ validator, reward_address: reward });
  }
  return out;
}

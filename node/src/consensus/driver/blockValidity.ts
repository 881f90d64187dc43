/**
 * Whether a proposed block may be prevoted (the core's isValid): not too far ahead of this node's
 * clock, and it executes on the last committed state. The execution result is kept by block hash,
 * so a decided block (or one this node built) is not executed again when it is committed.
 */

import type { Logger } from '@chain-devnet/kit/log';
import { type Block, BlockError, type BlockResult, blockHash } from '../../chain/index.js';
import type { ChainService } from '../../service/chainService.js';

export class BlockValidity {
  private readonly results = new Map<string, BlockResult>();

  constructor(
    private readonly service: ChainService,
    private readonly logger: Logger,
    /** A block whose timestamp is further ahead of this node's clock is refused. */
    private readonly maxClockDriftSec: number,
    private readonly now: () => number,
  ) {}

  isValid(block: Block): boolean {
    if (block.header.timestamp > Math.floor(this.now() / 1000) + this.maxClockDriftSec) return false;
    try {
      this.results.set(blockHash(block.header), this.service.validateBlock(block));
      return true;
    } catch (e) {
      if (!(e instanceof BlockError)) throw e;
      this.logger.warn('invalid block proposed', {
        height: block.header.height,
        code: e.code,
        error: e.message,
      });
      return false;
    }
  }

  /** This validator's block for `round`, its result kept. */
  build(privateKey: Uint8Array, round: number): Block {
    const { block, result } = this.service.buildProposal(privateKey, round);
    this.results.set(blockHash(block.header), result);
    return block;
  }

  resultOf(hash: string): BlockResult | undefined {
    return this.results.get(hash);
  }

  /** On entering a height: the results of the last one no longer apply. */
  clear(): void {
    this.results.clear();
  }
}

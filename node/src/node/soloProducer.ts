/**
 * Produces a block every block time while this node's key is the only active validator
 * (a one-node chain). Ticks are scheduled from the previous tick's target time, so the
 * interval does not drift with the time a block takes. A block that cannot be built
 * (e.g. an upgrade this node does not support) stops production with an error log; the node
 * keeps serving its RPC. With more validators, consensus (docs/CONSENSUS.md) takes this role.
 */
import { activeValidators, BlockError } from '../chain/index.js';
import type { Logger } from '../util/logger.js';
import type { ChainService } from './chainService.js';

export class SoloProducer {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private warned = false;
  private nextAt = 0;

  constructor(
    private readonly service: ChainService,
    private readonly privateKey: Uint8Array,
    private readonly validatorAddress: string,
    private readonly blockTimeMs: number,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  start(): void {
    this.nextAt = this.now() + this.blockTimeMs;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    const delay = Math.max(0, this.nextAt - this.now());
    this.timer = setTimeout(() => {
      this.inFlight = this.tick();
    }, delay);
  }

  private async tick(): Promise<void> {
    this.nextAt += this.blockTimeMs;
    if (this.nextAt < this.now()) this.nextAt = this.now() + this.blockTimeMs;
    try {
      const active = activeValidators(this.service.state);
      if (active.length === 1 && active[0]!.address === this.validatorAddress) {
        await this.service.produce(this.privateKey);
      } else if (!this.warned) {
        this.warned = true;
        this.logger.warn('not producing: this node is not the only active validator', {
          active: active.length,
          validator: this.validatorAddress,
        });
      }
    } catch (e) {
      if (e instanceof BlockError) {
        this.logger.error('block production stopped', { code: e.code, error: e.message });
        this.stopped = true;
        return;
      }
      this.logger.error('block production failed; retrying next slot', { error: e as Error });
    }
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
  }
}

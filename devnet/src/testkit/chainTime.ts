/**
 * The chain's time in a test (`net.time`, docs/TESTKIT.md "Tests that do not race"): the same
 * controls as `devnet chain …` and `devnet clock …` (operations/chainTime.ts), each returning once
 * it is in force on every node that runs. Hold the chain while looking at a state that lasts a few
 * blocks; mine to the height a test needs instead of waiting for it; jump chain time instead of
 * sleeping. A control the devnet refuses fails naming the step and the node.
 */
import { RpcError } from '@chain-devnet/node/client';
import type { Devnet } from '../devnet/devnet.js';
import { ChainTime, type ChainTimeHost, type Mined, type MineTarget } from '../operations/chainTime.js';
import type { NetContext } from './context.js';
import { TestkitError } from './errors.js';

export type { Mined, MineTarget };

export class TimeControl {
  private readonly t: ChainTime;

  /** On a devnet, or the simulation's nodes (testnet/simTime.ts). */
  constructor(
    host: Devnet | ChainTimeHost,
    private readonly net: NetContext,
  ) {
    this.t = new ChainTime(host);
  }

  private async failsAs<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof TestkitError) throw e;
      const node = this.net.names()[0]!;
      throw await this.net.failureNow(node, `${what} to succeed`, (e as Error).message, e);
    }
  }

  /** Holds the chain (`devnet chain pause`); returns the height it is held at. */
  async pause(): Promise<number> {
    return (await this.failsAs('devnet chain pause', () => this.t.pause())).height;
  }

  /** Lets it go on (`devnet chain resume`); returns the height it goes on from. */
  async resume(): Promise<number> {
    return (await this.failsAs('devnet chain resume', () => this.t.resume())).height;
  }

  /** `devnet chain mine N` (a number), `--until-height H` ({height}), `--until-epoch E` ({epoch}): the heights made. */
  async mine(target: number | MineTarget): Promise<readonly number[]> {
    const t = typeof target === 'number' ? { blocks: target } : target;
    return (await this.failsAs(`devnet chain mine ${JSON.stringify(t)}`, () => this.t.mine(t))).heights;
  }

  /**
   * On a held chain: mines a block at a time until the transaction `hash` (sent, in the mempools)
   * is in one, at most `maxBlocks`; the height of its block. So a test makes a transition at a
   * height it knows and reads what follows held, with no block racing its reads.
   */
  async mineIn(hash: string, maxBlocks = 5): Promise<number> {
    const node = this.net.names()[0]!;
    for (let i = 0; i < maxBlocks; i++) {
      await this.mine(1);
      const r = await this.net
        .rpc(node)
        .receipt(hash)
        .catch((e: unknown) => {
          if (e instanceof RpcError && e.status === 404) return null;
          throw e;
        });
      if (r?.status === 'confirmed') return r.block_height!;
      if (r?.status === 'failed')
        throw await this.net.failureNow(node, `${hash} confirmed`, `failed: ${r.error ?? ''}`);
    }
    throw await this.net.failureNow(node, `${hash} in one of ${maxBlocks} mined blocks`, 'not in any');
  }

  /** `devnet chain block-time D` (null: the genesis's again). */
  blockTime(ms: number | null): Promise<void> {
    return this.failsAs(`devnet chain block-time ${ms ?? 'default'}`, () => this.t.blockTime(ms));
  }

  /** `devnet chain time +D`: the next blocks' chain time `ms` later; returns the offset in force. */
  async advance(ms: number): Promise<number> {
    return (await this.failsAs(`devnet chain time +${ms}ms`, () => this.t.jump({ byMs: ms }))).offsetMs;
  }

  /** `devnet chain time --at UNIX`. */
  async setTime(unixSeconds: number): Promise<number> {
    return (
      await this.failsAs(`devnet chain time --at ${unixSeconds}`, () => this.t.jump({ atUnix: unixSeconds }))
    ).offsetMs;
  }

  /** `devnet clock NODE --skew ±D`: the node's own clock `ms` ahead (negative: behind). */
  async skew(node: string, ms: number): Promise<void> {
    await this.failsAs(`devnet clock ${node} --skew ${ms}ms`, () => this.t.skew(node, ms));
  }
}

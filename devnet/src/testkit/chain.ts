/**
 * The chain as every node's RPC shows it: heights, blocks (final, so read once per node and
 * kept), block hashes, validators, consistent reads at a known height, /metrics, receipts. Every
 * check that spans nodes names the node and the height that failed.
 */

import { waitFor } from '@chain-devnet/kit/wait';
import {
  type BlockAnswer,
  type ReceiptAnswer,
  RpcError,
  type StatusAnswer,
  type ValidatorAnswer,
  type ValidatorsAnswer,
} from '@chain-devnet/node/client';
import { Metrics } from './metrics.js';
import { type ActiveSet, sortedSet } from './model/activeSet.js';
import type { NetReads } from './net.js';

/** Runs `f` over `items` with at most `width` at a time, in order of results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  width: number,
  f: (x: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]!);
      }
    }),
  );
  return out;
}

export class Chain {
  private readonly blocks = new Map<string, Map<number, BlockAnswer>>();

  constructor(private readonly net: NetReads) {}

  status(name: string): Promise<StatusAnswer> {
    return this.net.rpc(name).status();
  }

  async height(name: string): Promise<number> {
    return (await this.status(name)).height;
  }

  /** Heights of the named nodes (default: all); a node that does not answer is named in the error. */
  async heights(names: readonly string[] = this.net.names()): Promise<Map<string, number>> {
    const hs = await Promise.all(
      names.map(async (n) => {
        try {
          return [n, await this.height(n)] as const;
        } catch (e) {
          throw new Error(`${n} does not answer /status: ${(e as Error).message}`);
        }
      }),
    );
    return new Map(hs);
  }

  async maxHeight(names: readonly string[] = this.net.names()): Promise<number> {
    return Math.max(...(await this.heights(names)).values());
  }

  async minHeight(names: readonly string[] = this.net.names()): Promise<number> {
    return Math.min(...(await this.heights(names)).values());
  }

  /** Block `h` as node `name` serves it (kept: a final block never changes). */
  async block(name: string, h: number): Promise<BlockAnswer> {
    let kept = this.blocks.get(name);
    if (kept === undefined) {
      kept = new Map();
      this.blocks.set(name, kept);
    }
    const hit = kept.get(h);
    if (hit !== undefined) return hit;
    const b = await this.net.rpc(name).block(h);
    if (b.header.height !== h)
      throw this.net.failure({
        node: name,
        height: null,
        expected: `block ${h} for GET /block/${h}`,
        found: `block ${b.header.height}`,
      });
    kept.set(h, b);
    return b;
  }

  /** Block `h` of `name`, or null when the node does not have it (404). */
  async blockOrNull(name: string, h: number): Promise<BlockAnswer | null> {
    try {
      return await this.block(name, h);
    } catch (e) {
      if (e instanceof RpcError && e.status === 404) return null;
      throw e;
    }
  }

  async blocksOf(name: string, from: number, to: number): Promise<BlockAnswer[]> {
    const hs = [];
    for (let h = from; h <= to; h++) hs.push(h);
    return mapLimit(hs, 16, (h) => this.block(name, h));
  }

  /** The hash of block `h` on `name`: the next block's prev_hash, or last_hash at the tip. */
  async hashAt(name: string, h: number): Promise<string> {
    const next = await this.blockOrNull(name, h + 1);
    if (next !== null) return next.header.prev_hash;
    const s = await this.status(name);
    if (s.height === h) return s.last_hash;
    return (await this.block(name, h + 1)).header.prev_hash;
  }

  /** Waits until every named node is at `target` or above, within the bound of `blocks` blocks. */
  async waitHeight(
    target: number,
    names: readonly string[] = this.net.names(),
    blocks?: number,
  ): Promise<Map<string, number>> {
    let last = new Map<string, number>();
    const b = blocks ?? Math.max(1, target - (await this.maxHeight(names).catch(() => target)));
    const seen = () => [...last].map(([n, h]) => `${n} ${h < 0 ? 'not answering' : `at ${h}`}`).join(', ');
    return waitFor(
      `${names.join(', ')} at height ${target} (within ${b} blocks)`,
      this.net.within(b),
      async () => {
        const hs = await Promise.all(
          names.map(async (n) => [n, await this.height(n).catch(() => -1)] as const),
        );
        last = new Map(hs);
        return hs.every(([, h]) => h >= target) ? last : null;
      },
      { seen },
    ).catch((e: unknown) => {
      const [node, h] = [...last].sort((x, y) => x[1] - y[1])[0] ?? [names[0]!, -1];
      throw this.net.failure(
        {
          node,
          height: h < 0 ? null : h,
          expected: `height ${target} or above on ${names.join(', ')} within ${b} blocks`,
          found: seen() || 'no answer',
        },
        e,
      );
    });
  }

  /** Waits `k` more blocks past the highest node now, on every named node. */
  async waitBlocks(k: number, names: readonly string[] = this.net.names()): Promise<number> {
    const target = (await this.maxHeight(names)) + k;
    await this.waitHeight(target, names, k);
    return target;
  }

  /**
   * Agreement: at every height from..to, every named node serves the same block (header and
   * transactions) with the same hash. Waits until every node has block to+1 (whose prev_hash
   * is the hash of block `to`).
   */
  async assertAgreement(names: readonly string[], from: number, to: number): Promise<void> {
    await this.waitHeight(to + 1, names);
    const [ref, ...others] = names;
    const refBlocks = await this.blocksOf(ref!, from, to + 1);
    for (const n of others) {
      const blocks = await this.blocksOf(n, from, to + 1);
      for (let i = 0; i + 1 < blocks.length; i++) {
        const h = from + i;
        const mine = blocks[i + 1]!.header.prev_hash;
        const theirs = refBlocks[i + 1]!.header.prev_hash;
        if (mine !== theirs)
          throw this.net.failure({
            node: n,
            height: h,
            expected: `block hash ${theirs} (as ${ref})`,
            found: `block hash ${mine}`,
          });
        if (JSON.stringify(blocks[i]) !== JSON.stringify(refBlocks[i]))
          throw this.net.failure({
            node: n,
            height: h,
            expected: `the block ${ref} serves`,
            found: `another block: ${JSON.stringify(blocks[i]!.header)}`,
          });
      }
    }
  }

  async validators(name: string): Promise<ValidatorsAnswer> {
    return this.net.rpc(name).validators();
  }

  /** The active set on `name` now, in proposer order, checked against its proposer_index field. */
  async activeSet(
    name: string,
  ): Promise<{ height: number; set: ActiveSet; validators: readonly ValidatorAnswer[] }> {
    const { height, value } = await this.consistent(name, () => this.validators(name));
    const active = value.validators.filter((v) => v.status === 'ACTIVE');
    const set = sortedSet(active.map((v) => v.address));
    for (const v of value.validators) {
      const i = set.indexOf(v.address);
      const fields = [
        ['proposer_index', v.proposer_index, i < 0 ? null : i],
        ['is_active', v.is_active, v.status === 'ACTIVE'],
        ['is_jailed', v.is_jailed, v.status === 'JAILED'],
      ] as const;
      for (const [field, got, want] of fields)
        if (got !== want)
          throw this.net.failure({
            node: name,
            height,
            expected: `${field} of ${v.name} (${v.status}, place ${i} in the address order) ${want}`,
            found: String(got),
          });
    }
    return { height, set, validators: value.validators };
  }

  /**
   * A read at a known height: /status before and after `read` give the same height (retried
   * until they do, bounded). The value is the node's state at that height.
   */
  async consistent<T>(name: string, read: () => Promise<T>): Promise<{ height: number; value: T }> {
    return waitFor(`a read of ${name} at a stable height`, this.net.within(10), async () => {
      const a = await this.height(name);
      const value = await read();
      const b = await this.height(name);
      return a === b ? { height: a, value } : null;
    });
  }

  async metrics(name: string): Promise<Metrics> {
    return Metrics.parse(await this.net.rpc(name).metrics());
  }

  /** /metrics at a known height: chain_block_height and /status agree before and after the scrape. */
  async metricsAt(name: string): Promise<{ height: number; metrics: Metrics }> {
    return waitFor(`a /metrics scrape of ${name} at a stable height`, this.net.within(10), async () => {
      const a = await this.height(name);
      const m = await this.metrics(name);
      const b = await this.height(name);
      return a === b && m.get('chain_block_height') === a ? { height: a, metrics: m } : null;
    });
  }

  async receipt(name: string, hash: string): Promise<ReceiptAnswer | null> {
    try {
      return await this.net.rpc(name).receipt(hash);
    } catch (e) {
      if (e instanceof RpcError && e.status === 404) return null;
      throw e;
    }
  }

  /**
   * Waits until `hash` is confirmed on every named node, at one height everywhere, and the block
   * there holds it; returns that height. Recorded in the ledger (checked again at the end).
   */
  async confirmedEverywhere(hash: string, names: readonly string[] = this.net.names(), blocks = 10) {
    const seen = new Map<string, string>();
    let failed: { node: string; error: string | null } | null = null;
    const at = await waitFor(
      `transaction ${hash} confirmed on ${names.join(', ')}`,
      this.net.within(blocks),
      async () => {
        const rs = await Promise.all(names.map((n) => this.receipt(n, hash)));
        rs.forEach((r, i) => {
          seen.set(names[i]!, r === null ? 'unknown' : `${r.status}@${r.block_height}`);
          if (r?.status === 'failed') failed ??= { node: names[i]!, error: r.error };
        });
        return failed !== null || rs.every((r) => r?.status === 'confirmed') ? (rs as ReceiptAnswer[]) : null;
      },
      { seen: () => [...seen].map(([n, s]) => `${n} ${s}`).join(', ') },
    ).catch(async (e: Error) => {
      const first = names.find((n) => !seen.get(n)?.startsWith('confirmed')) ?? names[0]!;
      throw await this.net.failureNow(
        first,
        `transaction ${hash} confirmed on ${names.join(', ')} ${`within ${blocks} blocks`}`,
        [...seen].map(([n, s]) => `${n} ${s}`).join(', ') || e.message,
        e,
      );
    });
    if (failed !== null) {
      const f = failed as { node: string; error: string | null };
      throw await this.net.failureNow(f.node, `transaction ${hash} confirmed`, `failed: ${f.error}`);
    }
    const height = at[0]!.block_height!;
    for (const [i, r] of at.entries()) {
      const n = names[i]!;
      if (r.block_height !== height)
        throw this.net.failure({
          node: n,
          height: r.block_height,
          expected: `${hash} confirmed at ${height} (as ${names[0]})`,
          found: `confirmed at ${r.block_height}`,
        });
      const b = await this.block(n, height);
      if (!b.txs.some((t) => t.tx_hash === hash))
        throw this.net.failure({
          node: n,
          height,
          expected: `block ${height} holds ${hash} (its receipt says so)`,
          found: `${b.txs.length} other transactions`,
        });
    }
    this.net.ledger.record(hash, height, 'confirmed everywhere');
    return height;
  }

  /** The validator whose node is `nodeName` (its name in /validators), as `name` sees it. */
  async validatorOf(name: string, nodeName: string): Promise<ValidatorAnswer> {
    const vs = await this.validators(name);
    const v = vs.validators.find((x) => x.name === nodeName);
    if (v === undefined)
      throw await this.net.failureNow(
        name,
        `a validator named ${nodeName} in /validators`,
        `${vs.validators.map((x) => x.name).join(', ')}`,
      );
    return v;
  }
}

/**
 * 7 Snapshots: at every snapshot height (every snapshot_interval blocks and every epoch boundary)
 * every node lists the same height and hash; the detail of each matches the chain (its block's
 * timestamp, epoch, validator count, account count); only the newest snapshots_kept are kept.
 * Made and read on a held chain (net.time: mined to each snapshot height needed), so no read
 * races a block.
 */
import assert from 'node:assert/strict';
import { COIN, type TestnetBase, Wallet } from '@chain-devnet/devnet/testkit';
import type { ChainParams } from '@chain-devnet/node/chain';
import { RpcError, type SnapshotAnswer, type SnapshotListItem } from '@chain-devnet/node/client';
import type { Scenario } from './scenario.js';

/** Snapshot heights by the rules: every snapshot_interval blocks and every epoch boundary. */
function snapshotHeights(p: ChainParams) {
  const { epochLength: L, snapshotInterval: I, snapshotsKept: K } = p;
  const isSnapshotHeight = (h: number) => h > 0 && (h % I === 0 || h % L === 0);
  return {
    /** The K newest snapshot heights at or below y, newest first. */
    newest(y: number): number[] {
      const out: number[] = [];
      for (let h = y; h > 0 && out.length < K; h--) if (isSnapshotHeight(h)) out.push(h);
      return out;
    },
    /** The next `count` snapshot heights after `from`. */
    next(from: number, count: number): number[] {
      const out: number[] = [];
      for (let h = from + 1; out.length < count; h++) if (isSnapshotHeight(h)) out.push(h);
      return out;
    },
  };
}
type SnapshotHeights = ReturnType<typeof snapshotHeights>;

/** One node's list of snapshots and the detail of each it still served when asked. */
interface Listed {
  readonly list: readonly SnapshotListItem[];
  readonly details: Map<number, SnapshotAnswer>;
}

export const snapshots: Scenario<TestnetBase> = {
  id: 7,
  title: 'snapshots: same height and hash on every node, details match the chain, only the last 10 kept',
  async run(net) {
    const heights = snapshotHeights(net.params);
    // Held from the first snapshot height made to the last check: no snapshot is made or pruned
    // while the lists and details are read (the chain goes on after, whatever happened).
    try {
      const { accounts, hAccount } = await snapshotsTakenAroundNewAccount(net, heights);
      const listed = new Map<string, Listed>();
      for (const n of net.names()) listed.set(n, await newestKeptAndServed(net, n, heights));
      sameSnapshotsEverywhere(net.names(), listed);
      await detailsMatchTheChain(net, listed, accounts, hAccount);
      // A pruned snapshot is gone everywhere.
      const first = net.names()[0]!;
      const pruned = heights.newest(Math.min(...listed.get(first)!.list.map((s) => s.height)) - 1)[0]!;
      for (const n of net.names())
        await assert.rejects(
          net.node(n).rpc.snapshot(pruned),
          (e: Error) => /404/.test(e.message),
          `${n}: pruned snapshot ${pruned} is still served`,
        );
    } finally {
      await net.time.resume();
    }
  },
};

/**
 * Held throughout (net.time): two snapshot heights mined, a new account mined into a block, then
 * enough snapshot heights that the oldest were pruned; the chain's account count read held at the
 * end of each stretch (from one node's /metrics). Accounts are never removed, so a count equal at
 * both ends of a stretch is the count at every height in it. The chain is left held.
 */
async function snapshotsTakenAroundNewAccount(
  net: TestnetBase,
  heights: SnapshotHeights,
): Promise<{ accounts: Map<number, number>; hAccount: number }> {
  const { chain, txs } = net;
  const ref = net.names()[0]!;
  const accounts = new Map<number, number>();
  const countHeld = async () => {
    const { height, metrics } = await chain.metricsAt(ref);
    accounts.set(height, metrics.get('chain_accounts_total')!);
  };
  const h0 = await net.time.pause();
  await countHeld();
  await net.time.mine({ height: heights.next(h0, 2).at(-1)! });
  await countHeld();
  const faucet = txs.faucet();
  const nonce = (await net.node(ref).rpc.balance(faucet.address)).nonce;
  const to = Wallet.random('snapshot').address;
  const sent = await txs.send(faucet, { type: 'TRANSFER', to, amount: COIN, nonce }, ref);
  const hAccount = await net.time.mineIn(sent.hash);
  await countHeld();
  // Enough snapshot heights that the oldest were pruned.
  await net.time.mine({
    height: Math.max(
      heights.next(hAccount, 2).at(-1)!,
      heights.next(0, net.params.snapshotsKept + 1).at(-1)!,
    ),
  });
  await countHeld();
  return { accounts, hAccount };
}

/** `n` lists the newest snapshots_kept snapshot heights; the detail of each, read at once. */
async function newestKeptAndServed(net: TestnetBase, n: string, heights: SnapshotHeights): Promise<Listed> {
  const { chain } = net;
  const K = net.params.snapshotsKept;
  const before = await chain.height(n);
  const { snapshots: list } = await net.node(n).rpc.snapshots();
  const after = await chain.height(n);
  const listedHeights = list.map((s) => s.height);
  // The snapshot of a block is written just after the block is committed: one may be pending.
  const ok = [];
  for (let y = before - 1; y <= after; y++) ok.push(heights.newest(y).join());
  assert.ok(
    ok.includes(listedHeights.join()),
    `${n} at height ${before}..${after}: /snapshots lists heights ${listedHeights.join(', ')}, expected the ${K} newest snapshot heights: ${heights.newest(before).join(', ')}`,
  );
  assert.equal(list.length, K, `${n} at height ${before}: ${list.length} snapshots kept, expected ${K}`);
  // The details at once: the chain goes on and prunes the oldest every few blocks.
  const details = new Map<number, SnapshotAnswer>();
  await Promise.all(
    list.map(async (x) => {
      try {
        details.set(x.height, await net.node(n).rpc.snapshot(x.height));
      } catch (e) {
        if (!(e instanceof RpcError && e.status === 404)) throw e;
      }
    }),
  );
  const gone = list.filter((x) => !details.has(x.height)).map((x) => x.height);
  if (gone.length > 0) {
    // Only pruned since the list was read: no longer listed, and the oldest ones.
    const { snapshots: now } = await net.node(n).rpc.snapshots();
    for (const h of gone)
      assert.ok(
        !now.some((x) => x.height === h),
        `${n}: snapshot ${h} is listed but /snapshots/${h} answers 404`,
      );
    assert.deepEqual(
      gone,
      listedHeights.slice(-gone.length),
      `${n}: snapshots gone meanwhile are not the oldest`,
    );
  }
  return { list, details };
}

/** Same height, same hash (and timestamp and size), on every node. */
function sameSnapshotsEverywhere(names: readonly string[], listed: ReadonlyMap<string, Listed>): void {
  const [first, ...rest] = names;
  const byHeight = new Map(listed.get(first!)!.list.map((s) => [s.height, s]));
  for (const n of rest)
    for (const s of listed.get(n)!.list) {
      const theirs = byHeight.get(s.height);
      if (theirs === undefined) continue;
      assert.equal(
        s.hash,
        theirs.hash,
        `${n}: snapshot at height ${s.height} has hash ${s.hash}, ${first} has ${theirs.hash}`,
      );
      assert.equal(
        s.timestamp,
        theirs.timestamp,
        `${n}: snapshot at height ${s.height}: timestamp differs from ${first}'s`,
      );
      assert.equal(
        s.size_bytes,
        theirs.size_bytes,
        `${n}: snapshot at height ${s.height}: size differs from ${first}'s`,
      );
    }
}

/** The account count at h from the samples, or null where they do not say. */
function accountCountAt(
  accounts: ReadonlyMap<number, number>,
  sampled: readonly number[],
  h: number,
): number | null {
  if (accounts.has(h)) return accounts.get(h)!;
  const below = sampled.filter((x) => x < h).at(-1);
  const above = sampled.find((x) => x > h);
  if (below === undefined || above === undefined) return null;
  // Accounts are never removed: equal counts around h are the count at h.
  return accounts.get(below) === accounts.get(above) ? accounts.get(below)! : null;
}

/**
 * Details: what the list says, plus epoch, validator and account counts of the chain there; the
 * account count checked on both sides of the new account.
 */
async function detailsMatchTheChain(
  net: TestnetBase,
  listed: ReadonlyMap<string, Listed>,
  accounts: ReadonlyMap<number, number>,
  hAccount: number,
): Promise<void> {
  const sampled = [...accounts.keys()].sort((a, b) => a - b);
  const accountChecked = new Set<number>();
  await net.model.syncTo(Math.max(...[...listed.values()].flatMap((l) => l.list).map((s) => s.height)));
  for (const n of net.names())
    for (const s of listed.get(n)!.list) {
      const at = `${n}: snapshot at height ${s.height}`;
      const d = listed.get(n)!.details.get(s.height);
      if (d === undefined) continue;
      assert.deepEqual(
        {
          height: d.height,
          timestamp: d.timestamp,
          size_bytes: d.size_bytes,
          hash: d.hash,
          compressed: d.compressed,
        },
        s,
        `${at}: the detail differs from the list`,
      );
      assert.equal(d.compressed, true, `${at}: compressed`);
      assert.equal(
        d.timestamp,
        (await net.chain.block(n, s.height)).header.timestamp,
        `${at}: timestamp vs its block`,
      );
      assert.equal(d.epoch, Math.floor(s.height / net.params.epochLength), `${at}: epoch`);
      assert.equal(d.validator_count, net.model.at(s.height).size, `${at}: validator_count`);
      const acc = accountCountAt(accounts, sampled, s.height);
      if (acc !== null) {
        assert.equal(d.account_count, acc, `${at}: account_count ${d.account_count}, the chain had ${acc}`);
        accountChecked.add(s.height);
      }
    }
  const checked = [...accountChecked];
  assert.ok(
    checked.some((h) => h < hAccount) && checked.some((h) => h >= hAccount),
    `account_count checked at ${checked.join(', ') || 'no height'}: expected heights on both sides of the new account at ${hAccount}`,
  );
}

/**
 * Every node lists the same snapshots (height and hash) over the heights all of them cover: also
 * a node that was down at some snapshot heights and fetched those blocks from its peers.
 */
export async function snapshotsAgree(
  net: TestnetBase,
): Promise<{ from: number; to: number; heights: number[] }> {
  const names = net.names();
  const lists = new Map<string, { below: number; list: readonly SnapshotListItem[] }>();
  for (const n of names) {
    const below = await net.chain.height(n);
    const { snapshots: list } = await net.node(n).rpc.snapshots();
    lists.set(n, { below, list });
  }
  // Heights every list must hold: above each list's oldest, below each node's height at the read.
  const from = Math.max(...[...lists.values()].map((l) => Math.min(...l.list.map((s) => s.height))));
  const to = Math.min(...[...lists.values()].map((l) => l.below - 1));
  const [first, ...rest] = names;
  const pick = (n: string) =>
    lists
      .get(n)!
      .list.filter((s) => s.height >= from && s.height <= to)
      .map((s) => `${s.height}:${s.hash}`);
  for (const n of rest)
    assert.deepEqual(
      pick(n),
      pick(first!),
      `${n}: snapshots at heights ${from}..${to} differ from ${first}'s (height:hash)`,
    );
  return { from, to, heights: pick(first!).map((x) => Number(x.split(':')[0])) };
}

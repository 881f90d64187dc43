/**
 * Market scale benchmark (docs/BENCHMARKS.md, "The market at 100,000 tasks"; issue 24, item 4):
 * `MarketService` over a real level store, no HTTP, no node: the blocks it follows are made here.
 *   1. posting: N tasks (inference, a prompt of --prompt-bytes), each a POST's intake (one
 *      synced batch) and then the block holding its payment (--per-block payments a block);
 *   2. settling: a block past the deadline that --settle of them share: they fail and their
 *      refunds are planned (signed) in that block; then the block that confirms the refunds;
 *   3. restart: the store closed and opened again.
 * It writes the latency of each step (intake p50/p99, a block of payments, the settling block,
 * the refunds' block, a read of a task and of a page of GET /tasks after it) and the heap used
 * after each (after a forced GC: run with --expose-gc, as the npm script does).
 *   npm run bench:market [-- --tasks 100000 --settle 10000 --prompt-bytes 16384 --per-block 1000]
 * The same file runs against an older MarketService (the calls it makes exist on both).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import type { Tx } from '../src/chain/index.js';
import { accountAddressOf } from '../src/crypto/address.js';
import { utf8Bytes } from '../src/crypto/hash.js';
import { privateKeyFromSeed, publicKeyHexOf } from '../src/crypto/keys.js';
import { DEFAULT_RULES, DEFAULT_TRANSFER_FEE } from '../src/market/rules.js';
import { MarketService } from '../src/market/service.js';
import { MarketStore } from '../src/market/store.js';
import type { Terms } from '../src/market/terms.js';

const { values } = parseBenchArgs({
  options: {
    tasks: { type: 'string' },
    settle: { type: 'string' },
    'prompt-bytes': { type: 'string' },
    'per-block': { type: 'string' },
    dir: { type: 'string' },
  },
});
const TASKS = Number(values.tasks ?? 100_000);
const SETTLE = Number(values.settle ?? 10_000);
const PROMPT = 'p'.repeat(Number(values['prompt-bytes'] ?? 16_384));
const PER_BLOCK = Number(values['per-block'] ?? 1_000);
const CHAIN = 'chain-devnet-1';
const T0 = 1_700_000_000;
const EARLY = T0 + 100_000; // the deadline SETTLE tasks share
const LATE = T0 + 1_000_000;

const escrowKey = privateKeyFromSeed(utf8Bytes('bench:market'), 'escrow');
const escrow = {
  address: accountAddressOf(publicKeyHexOf(escrowKey)),
  privateKey: escrowKey,
  chainId: CHAIN,
  fee: DEFAULT_TRANSFER_FEE,
};
const creatorPub = publicKeyHexOf(privateKeyFromSeed(utf8Bytes('bench:market'), 'creator'));
const creator = accountAddressOf(creatorPub);

/** The calls made here, as both the current and an older MarketService have them. */
interface Service {
  intake(terms: Terms, funding: Tx): Promise<unknown>;
  applyBlock(b: {
    height: number;
    timestamp: number;
    txs: { tx: Tx; hash: string; outcome: 'confirmed' | 'failed' | null }[];
    signers: null;
  }): Promise<void>;
  task(id: string): unknown;
  list(...args: unknown[]): unknown;
  unpaid(): { tx: { tx_hash?: string }; tx_hash: string; amount: string; nonce: number }[];
  readonly books: { cursor: number; chain_time: number };
}

const mb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
};
const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
const row = (what: string, value: string) => console.log(`${what.padEnd(44)} ${value}`);

function funding(i: number, deadline: number): { terms: Terms; tx: Tx } {
  const terms: Terms = {
    challengeType: 'inference',
    // A prompt of its own, as a parsed request body gives it (not one string shared by all).
    payload: JSON.parse(
      JSON.stringify({ model_id: 'bench', prompt: `${i} ${PROMPT}`.slice(0, PROMPT.length), max_tokens: 16 }),
    ),
    reward: 1_000n + BigInt(i),
    deadline,
  };
  // The service does not check a funding signature (the HTTP intake did): a placeholder one.
  const tx: Tx = {
    type: 'TRANSFER',
    from: creator,
    to: escrow.address,
    amount: terms.reward,
    fee: DEFAULT_TRANSFER_FEE,
    nonce: i,
    gasPrice: 0,
    gasLimit: 0,
    timestamp: T0,
    pubKey: creatorPub,
    signature: '00'.repeat(65),
    payload: { memo: `market:${i}` },
  };
  return { terms, tx };
}

async function open(dir: string): Promise<{ service: Service; store: MarketStore }> {
  const store = await MarketStore.open(join(dir, 'market-data'));
  const service = (await MarketService.open(store, escrow, DEFAULT_RULES, async () => ({
    chain_id: CHAIN,
    escrow: escrow.address,
    cursor: 1,
    balance: (10n ** 24n).toString(),
    next_nonce: 0,
    chain_time: T0,
  }))) as unknown as Service;
  return { service, store };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(values.dir ?? tmpdir(), 'bench-market-'));
  const { txHash } = await import('../src/chain/index.js');
  try {
    let { service, store } = await open(dir);
    let height = 1;
    let time = T0;
    const block = async (
      txs: { tx: Tx; hash: string; outcome: 'confirmed' | 'failed' | null }[],
      at = ++time,
    ) => {
      const t = process.hrtime.bigint();
      await service.applyBlock({ height: ++height, timestamp: at, txs, signers: null });
      return ms(t);
    };
    row('tasks, settling at one deadline, prompt bytes', `${TASKS}, ${SETTLE}, ${PROMPT.length}`);
    row('heap at start (MB)', String(mb()));

    // 1. Posting.
    const intakes: number[] = [];
    const blocks: number[] = [];
    const started = process.hrtime.bigint();
    const ids: string[] = [];
    for (let from = 0; from < TASKS; from += PER_BLOCK) {
      const txs = [];
      for (let i = from; i < Math.min(TASKS, from + PER_BLOCK); i++) {
        const { terms, tx } = funding(i, i < SETTLE ? EARLY : LATE);
        const t = process.hrtime.bigint();
        const r = (await service.intake(terms, tx)) as { task: { task_id: string } };
        intakes.push(ms(t));
        ids.push(r.task.task_id);
        txs.push({ tx, hash: txHash(tx, CHAIN), outcome: 'confirmed' as const });
      }
      blocks.push(await block(txs));
    }
    row('posting: total (s)', (ms(started) / 1000).toFixed(1));
    row(
      'posting: intake p50 / p99 / max (ms)',
      `${median(intakes).toFixed(2)} / ${quantile(intakes, 0.99).toFixed(2)} / ${Math.max(...intakes).toFixed(1)}`,
    );
    row(
      `posting: a block of ${PER_BLOCK} payments p50 / max (ms)`,
      `${median(blocks).toFixed(0)} / ${Math.max(...blocks).toFixed(0)}`,
    );
    row('heap after posting (MB)', String(mb()));

    // 2. Settling: the block past the shared deadline, then the block of the refunds.
    const settling = await block([], EARLY + 1);
    time = EARLY + 1;
    row(`settling: the block failing ${SETTLE} (ms)`, settling.toFixed(0));
    // The refunds, planned at that block and the next ones: each following block confirms
    // every refund planned so far (as a node would take them), until none is left.
    const paying: number[] = [];
    let refunds = 0;
    for (let due = service.unpaid(); due.length > 0; due = service.unpaid()) {
      refunds += due.length;
      const txs = due.map((p) => ({
        tx: {
          ...funding(0, 0).tx,
          from: escrow.address,
          to: creator,
          amount: BigInt(p.amount),
          nonce: p.nonce,
        },
        hash: p.tx_hash,
        outcome: 'confirmed' as const,
      }));
      paying.push(await block(txs));
    }
    row('refunds paid, in blocks', `${refunds}, ${paying.length}`);
    row(
      'settling: a block paying them p50 / max (ms)',
      `${median(paying).toFixed(0)} / ${Math.max(...paying).toFixed(0)}`,
    );
    const readAt = process.hrtime.bigint();
    await service.task(ids[0]!);
    await service.task(ids[TASKS - 1]!);
    await service.list({ status: 'pending' }, 0, 20);
    row('reads after it: 2 tasks + a page (ms)', ms(readAt).toFixed(1));
    const quiet = await block([]);
    row('an empty block after it (ms)', quiet.toFixed(1));
    row('heap after settling (MB)', String(mb()));

    // 3. Restart.
    await store.close();
    const r0 = process.hrtime.bigint();
    ({ service, store } = await open(dir));
    row('restart: open (ms)', ms(r0).toFixed(0));
    row('heap after restart (MB)', String(mb()));
    row('an empty block after restart (ms)', (await block([])).toFixed(1));
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();

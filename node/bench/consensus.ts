/**
 * Consensus benchmark (docs/BENCHMARKS.md): a 4-validator network of real chain-node processes
 * over libp2p on 127.0.0.1.
 *   1. Load: pre-signed transfers from many senders, sent round-robin to the 4 nodes; committed
 *      transfers per second, and submit-to-final latency (p50, p99) observed by polling node 0.
 *   2. The ceiling in the same run: signature checks per second on one core x cores / nodes
 *      (every node checks every transaction once), measured in CPU time before the nodes start;
 *      and the CPU time the nodes and the load generator spent per committed transfer.
 *   3. Block-time sweep: the lowest block time at which 4 validators miss no proposer slot.
 * Bounded: a fixed number of transactions and blocks, each phase with a time limit.
 *   npm run bench:consensus [-- --txs 800 --sweep 100,150,200,300 --blocks 60]
 * Side by side (docs/BENCHMARKS.md): `--builds DIR,DIR --rounds R` runs the load R times on each
 * build's chain-node (a checkout's root, built), the builds alternating round by round, and gives
 * each build's medians and ranges; the sweep is skipped.
 *   npm run bench:consensus -- --builds ../main,. --rounds 5
 * `--batch N` sends N transfers per request with POST /tx/send_batch (an extension; 1, the
 * default: one per POST /tx/send); with --builds, one value per build (`--batch 1,1,32`), so a
 * build without the route is measured beside one with it.
 */

import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import { waitForOrNull } from '@chain-devnet/kit/wait';
import { checkTxSignature, MAX_TXS_PER_BATCH, type Tx, txHash, txToJson } from '../src/chain/index.js';
import { buildTx } from '../src/client/txBuilder.js';
import { hexToBytes } from '../src/crypto/hex.js';
import { DEFAULT_MEMPOOL_OPTIONS } from '../src/mempool/mempool.js';
import { installVerifierFromEnvironment } from '../src/mempool/verifierChoice.js';
import type { BlockAnswer, StatusAnswer, SubmitAnswer } from '../src/rpc/answers.js';
import { Cluster, type ClusterNode } from '../tests/support/cluster.js';

const { values } = parseBenchArgs({
  options: {
    txs: { type: 'string' },
    sweep: { type: 'string' },
    blocks: { type: 'string' },
    'block-time': { type: 'string' },
    streams: { type: 'string' },
    builds: { type: 'string' },
    rounds: { type: 'string' },
    batch: { type: 'string' },
  },
});
const BUILDS = values.builds?.split(',').map((b) => resolve(b)) ?? [];
const ROUNDS = Number(values.rounds ?? 3);
const STREAMS = Number(values.streams ?? 8);
const TXS = Number(values.txs ?? 800);
const SWEEP = values.sweep === 'none' ? [] : (values.sweep ?? '100,150,200,300').split(',').map(Number);
const SWEEP_BLOCKS = Number(values.blocks ?? 60);
const LOAD_BLOCK_MS = Number(values['block-time'] ?? 200);
const CHAIN = 'chain-devnet-1';
/** A node queues at most this many consecutive nonces of one sender (docs/PROTOCOL.md). */
const MAX_PENDING_PER_SENDER = DEFAULT_MEMPOOL_OPTIONS.maxPerSender;
const BATCHES = (values.batch ?? '1').split(',').map(Number);
if (BATCHES.some((b) => !Number.isInteger(b) || b < 1 || b > MAX_TXS_PER_BATCH))
  throw new Error(`--batch: integers from 1 to ${MAX_TXS_PER_BATCH}, got ${values.batch}`);
if (BUILDS.length > 0 && BATCHES.length !== 1 && BATCHES.length !== BUILDS.length)
  throw new Error(`--batch: one value, or one per build (${BUILDS.length}), got ${values.batch}`);
const batchOf = (i: number) => BATCHES[BATCHES.length === 1 ? 0 : i]!;
// The ceiling below is measured with the verifier the nodes choose (libsecp256k1 where it loads).
installVerifierFromEnvironment();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

/**
 * The load generator's HTTP: keep-alive node:http, bodies encoded before the clock starts. It
 * runs on the same cores as the nodes, and fetch() took about 2 ms of CPU per transfer there.
 */
const agent = new Agent({ keepAlive: true });
function call<T>(node: ClusterNode, path: string, body?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json' };
    const req = request(
      {
        host: '127.0.0.1',
        port: node.rpcPort,
        path,
        method: body === undefined ? 'GET' : 'POST',
        headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(JSON.parse(text) as T);
          else reject(new Error(`${path}: HTTP ${res.statusCode} ${text}`));
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${path}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A node's process CPU time so far (user + system seconds, from its /metrics). */
async function nodeCpuSeconds(node: ClusterNode): Promise<number> {
  const text = await node.client.metrics();
  const m = /^process_cpu_seconds_total (\S+)$/m.exec(text);
  if (m === null) throw new Error('no process_cpu_seconds_total in /metrics');
  return Number(m[1]);
}

type Pending = { readonly hash: string; readonly body: string };

/**
 * One sender's transfers, in nonce order, `batch` a request, to `node`, as a client keeping to
 * the node's bound of pending transactions per sender: a request that would pass it (as seen on
 * node 0, `finalAt`) waits for the sender's earlier transfers to be final, and the part of a
 * request the node still refused for that bound (it applies a block after node 0) is sent again.
 * Any other refusal fails the benchmark.
 */
async function sendSender(
  node: ClusterNode,
  list: readonly Pending[],
  batch: number,
  submittedAt: Map<string, number>,
  finalAt: ReadonlyMap<string, number>,
): Promise<void> {
  let final = 0;
  for (let i = 0; i < list.length; ) {
    while (final < list.length && finalAt.has(list[final]!.hash)) final++;
    const chunk = list.slice(i, i + batch);
    if (i + chunk.length - final > MAX_PENDING_PER_SENDER) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const at = performance.now();
    for (const tx of chunk) if (!submittedAt.has(tx.hash)) submittedAt.set(tx.hash, at);
    const answers =
      batch === 1
        ? [await call<SubmitAnswer>(node, '/tx/send', chunk[0]!.body)]
        : await call<SubmitAnswer[]>(node, '/tx/send_batch', `[${chunk.map((t) => t.body).join(',')}]`);
    const refused = answers.findIndex((r) => r.status !== 'received');
    if (refused === -1) {
      i += chunk.length;
      continue;
    }
    if (!/pending transactions \(the most allowed\)/.test(answers[refused]!.error ?? ''))
      throw new Error(`refused: ${answers[refused]!.error}`);
    i += refused;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** One load's figures. */
interface LoadFigures {
  committed: number;
  submitted: number;
  tps: number;
  checksPerCore: number;
  ceiling: number;
  p50: number;
  p99: number;
  /** CPU per committed transfer, ms: each node (mean of 4), the load generator. */
  nodeMs: number;
  benchMs: number;
  /** Transaction gossip messages each node received per committed transfer (mean of 4). */
  messages: number;
}

/** The load on a cluster of `program` (this build's chain-node unless given). */
/** Transaction gossip messages node i received so far (every verdict), from its /metrics. */
async function txMessages(node: ClusterNode): Promise<number> {
  const text = await node.client.metrics();
  let n = 0;
  for (const m of text.matchAll(/^chain_gossip_messages_total\{([^}]*)\} (\S+)$/gm))
    if (m[1]!.includes('/chain/txs/')) n += Number(m[2]);
  return n;
}

async function load(program?: string, batch = batchOf(0)): Promise<LoadFigures> {
  const c = await Cluster.create(4, LOAD_BLOCK_MS, { epoch_length: 1_000_000 }, program);
  try {
    const accounts = JSON.parse(await readFile(join(c.nodes[0]!.home, 'accounts.json'), 'utf8')) as {
      private_key: string;
      address: string;
    }[];
    const perSender = Math.ceil(TXS / accounts.length);
    const txs: Tx[] = [];
    for (const [i, a] of accounts.entries()) {
      for (let n = 0; n < perSender && txs.length < TXS; n++) {
        txs.push(
          await buildTx(c.nodes[0]!.client, {
            type: 'TRANSFER',
            privateKey: hexToBytes(a.private_key),
            to: accounts[(i + 1) % accounts.length]!.address,
            amount: 1n,
            nonce: n,
            chainId: CHAIN,
            timestamp: Math.floor(Date.now() / 1000),
          }),
        );
      }
    }
    // The ceiling, measured in this run before the nodes start (a running cluster's own work
    // would slow the checks and flatter the ratio), per second of CPU time rather than of wall
    // time, so that other processes on the machine do not lower it. Median of 3.
    const rates = [0, 1, 2].map((k) => {
      const t0 = process.cpuUsage();
      for (let i = 0; i < 100; i++) checkTxSignature(txs[(k * 100 + i) % txs.length]!, CHAIN);
      const used = process.cpuUsage(t0);
      return 100 / ((used.user + used.system) / 1e6);
    });
    const checksPerCore = pct(rates, 50);
    const ceiling = (checksPerCore * cpus().length) / 4;
    c.startAll();
    await c.waitForHeight(3);

    const submittedAt = new Map<string, number>();
    const finalAt = new Map<string, number>();
    let seen = await c.height(0);
    let submitted = false;
    // Node 0's new blocks, polled from before the first submission until every transfer is in
    // one (at most 2 minutes after the last submission): when each transfer became final. A
    // poll that fails (a node too busy to answer in time) is retried: it must not end the
    // process with the cluster still running.
    const watched = waitForOrNull(
      'every submitted transfer final on node 0',
      120_000 + TXS * 100,
      async () => {
        const h = (await call<StatusAnswer>(c.nodes[0]!, '/status')).height;
        for (; seen < h; seen++) {
          const block = await call<BlockAnswer>(c.nodes[0]!, `/block/${seen + 1}`);
          const at = performance.now();
          for (const t of block.txs) finalAt.set(t.tx_hash, at);
        }
        return submitted && finalAt.size >= submittedAt.size;
      },
      { pollMs: 20 },
    );
    // Senders' transactions in nonce order, each sender to one node; STREAMS concurrent streams.
    const bySender = new Map<string, Pending[]>();
    for (const tx of txs)
      bySender.set(tx.from, [
        ...(bySender.get(tx.from) ?? []),
        { hash: txHash(tx, CHAIN), body: JSON.stringify(txToJson(tx)) },
      ]);
    const streams = [...bySender.values()];
    const cpuBefore = await Promise.all(c.nodes.map(nodeCpuSeconds));
    const messagesBefore = await Promise.all(c.nodes.map(txMessages));
    const benchCpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: STREAMS }, async (_v, w) => {
        for (const [s, list] of streams.entries()) {
          if (s % STREAMS !== w) continue;
          await sendSender(c.nodes[s % 4]!, list, batch, submittedAt, finalAt);
        }
      }),
    );
    submitted = true;
    await watched;
    const cpuAfter = await Promise.all(c.nodes.map(nodeCpuSeconds));
    const messagesAfter = await Promise.all(c.nodes.map(txMessages));
    const benchCpu = process.cpuUsage(benchCpuBefore);
    // Where the CPU went, per committed transfer: the ratio cannot exceed the share of all the
    // work that is the one signature check per node (when the cores are saturated, as here).
    const nodeMs = (1000 * cpuAfter.reduce((sum, x, i) => sum + x - cpuBefore[i]!, 0)) / 4 / finalAt.size;
    const benchMs = (benchCpu.user + benchCpu.system) / 1000 / finalAt.size;
    const latencies = [...submittedAt].filter(([h]) => finalAt.has(h)).map(([h, t]) => finalAt.get(h)! - t);
    const last = Math.max(...finalAt.values());
    return {
      committed: finalAt.size,
      submitted: submittedAt.size,
      tps: finalAt.size / ((last - started) / 1000),
      checksPerCore,
      ceiling,
      p50: pct(latencies, 50),
      p99: pct(latencies, 99),
      nodeMs,
      benchMs,
      messages: messagesAfter.reduce((sum, x, i) => sum + x - messagesBefore[i]!, 0) / 4 / finalAt.size,
    };
  } finally {
    await c.stopAll();
  }
}

async function sweep(blockMs: number): Promise<string> {
  const c = await Cluster.create(4, blockMs, { epoch_length: 1_000_000 });
  try {
    c.startAll();
    await c.waitForHeight(3);
    const from = await c.height(0);
    const started = performance.now();
    await c.waitForHeight(from + SWEEP_BLOCKS, [0], 60_000 + SWEEP_BLOCKS * blockMs * 4);
    const to = await c.height(0);
    const seconds = (performance.now() - started) / 1000;
    let rounds = 0;
    for (let h = from + 1; h <= to; h++) rounds += (await c.header(0, h)).round > 0 ? 1 : 0;
    const v = (await c.nodes[0]!.client.validators()).validators;
    const missedTotal = v.reduce((s, x) => s + x.missed_slots, 0);
    return `| ${blockMs} ms | ${to - from} | ${((seconds * 1000) / (to - from)).toFixed(0)} ms | ${rounds} | ${missedTotal} |`;
  } finally {
    await c.stopAll();
  }
}

function loadTable(f: LoadFigures): string {
  const checkMs = 1000 / f.checksPerCore;
  return (
    `| transfers committed | ${f.committed} of ${f.submitted} |\n` +
    `| committed transfers per second | ${f.tps.toFixed(1)} |\n` +
    `| signature checks per CPU second, one core (this run, median of 3) | ${Math.round(f.checksPerCore)} |\n` +
    `| ceiling: checks/s x ${cpus().length} cores / 4 nodes | ${f.ceiling.toFixed(1)} |\n` +
    `| ratio to the ceiling | ${(f.tps / f.ceiling).toFixed(2)} |\n` +
    `| submit-to-final latency p50 / p99 | ${Math.round(f.p50)} ms / ${Math.round(f.p99)} ms |\n` +
    `| CPU per committed transfer: each node (mean of 4) / load generator | ${f.nodeMs.toFixed(2)} ms / ${f.benchMs.toFixed(2)} ms |\n` +
    `| transaction gossip messages received per transfer, each node | ${f.messages.toFixed(2)} |\n` +
    `| one signature check, CPU time (1 / checks per CPU second) | ${checkMs.toFixed(2)} ms |\n` +
    `| signature checks' share of all that CPU: 4 x check / (4 x node + generator) | ${((4 * checkMs) / (4 * f.nodeMs + f.benchMs)).toFixed(2)} |\n`
  );
}

/** `--builds`: the load on each build, alternating round by round; medians and ranges. */
async function sideBySide(): Promise<void> {
  // A build named twice (with two --batch values) is two columns.
  const label = (i: number) => (BATCHES.length === 1 ? BUILDS[i]! : `${BUILDS[i]} --batch ${batchOf(i)}`);
  const runs = new Map<string, LoadFigures[]>(BUILDS.map((_b, i) => [label(i), []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, build] of BUILDS.entries()) {
      const f = await load(join(build, 'node', 'dist', 'src', 'bin', 'chain-node.js'), batchOf(i));
      runs.get(label(i))!.push(f);
      process.stdout.write(
        `round ${r + 1} ${label(i)}: ${f.tps.toFixed(1)} tx/s, ${f.nodeMs.toFixed(2)} ms CPU per transfer per node, ${f.messages.toFixed(2)} tx messages per transfer per node, p50 ${Math.round(f.p50)} ms, ${f.committed} of ${f.submitted}\n`,
      );
    }
  const col = (fs: LoadFigures[], k: keyof LoadFigures, d: number) => {
    const xs = fs.map((f) => f[k]);
    return `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
  };
  process.stdout.write(
    `\n${ROUNDS} rounds, ${LOAD_BLOCK_MS} ms blocks, ${TXS} transfers, ${STREAMS} streams, --batch ${BATCHES.join(',')}; medians (min–max)\n\n` +
      '| build | committed transfers per second | CPU per transfer, each node | load generator | tx gossip messages per transfer, each node | latency p50 | p99 |\n|---|---|---|---|---|---|---|\n',
  );
  for (const [build, fs] of runs)
    process.stdout.write(
      `| ${build} | ${col(fs, 'tps', 1)} | ${col(fs, 'nodeMs', 2)} ms | ${col(fs, 'benchMs', 2)} ms | ${col(fs, 'messages', 2)} | ${col(fs, 'p50', 0)} ms | ${col(fs, 'p99', 0)} ms |\n`,
    );
}

async function main() {
  process.stdout.write(
    `Consensus benchmark: 4 validators (real chain-node processes over libp2p on 127.0.0.1), ${cpus().length} cores\n\n`,
  );
  if (BUILDS.length > 0) return sideBySide();
  process.stdout.write(
    `Load at ${LOAD_BLOCK_MS} ms blocks, ${TXS} pre-signed transfers, ${batchOf(0)} a request:\n\n| measure | value |\n|---|---|\n${loadTable(await load())}\n`,
  );
  process.stdout.write(
    `Block-time sweep (${SWEEP_BLOCKS} blocks each, idle chain; missed slots since genesis, including start-up):\n\n`,
  );
  process.stdout.write(
    '| block time | blocks | mean interval | blocks not in round 0 | missed slots |\n|---|---|---|---|---|\n',
  );
  for (const ms of SWEEP) process.stdout.write(`${await sweep(ms)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});

/**
 * Benchmark: the CPU that the peer-to-peer stack alone takes to carry a network's consensus
 * traffic, the floor under a devnet's CPU (docs/BENCHMARKS.md, "The transport's floor"). N
 * validators' networks (the node's own P2PNetwork: TCP on 127.0.0.1, noise, yamux, identify, the
 * DHT, gossipsub with the node's options, the devnet's dialing topology) run as worker threads of
 * this process, as the threads runtime runs its nodes, under the V8 flags and young generation a
 * node gets there. Every slot of `--block-time` one of them publishes a proposal of
 * `--proposal-bytes` on the blocks topic and every one a prevote and a precommit of
 * `--vote-bytes` on the votes topic, each message new; a handler accepts each at once (no
 * decoding, no signature, no state, no disk, no log). What the process spends over `--seconds`
 * after `--warmup` is the cost of moving those messages, nothing else.
 *
 *   npm run bench:gossip -- [--validators 21] [--block-time 1s]
 *     [--seconds 90] [--warmup 30] [--rounds 3] [--shaping off|clear|both]
 *
 * --shaping clear puts every node's links through the shaping layer of fault injection with no
 * condition set (what every devnet node runs with: p2p/shaping/); both alternates rounds without
 * and with it, side by side in one run, and prints each one's median: the layer's own cost.
 *
 * The sizes default to a 21-validator devnet's (an empty block's proposal about 1,050 bytes, a
 * vote about 330; measured with GET /block and the vote encoder).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { median, parseDuration } from '@chain-devnet/kit/values';
import { pause } from '@chain-devnet/kit/wait';
import { NODE_V8_FLAGS, THREAD_YOUNG_GENERATION_MB } from '../src/builds/index.js';
import { P2PNetwork } from '../src/p2p/network.js';
import { peerIdOf, peerKeyFromSeed } from '../src/p2p/peerKey.js';
import { TOPIC_BLOCKS, TOPIC_TXS, TOPIC_VOTES } from '../src/p2p/protocol.js';
import { LinkShaping } from '../src/p2p/shaping/linkShaping.js';
import { dialedIndexes } from '../src/testnet/topology.js';
import { realTicker } from '../src/util/ticker.js';

interface NodeData {
  readonly index: number;
  readonly keySeeds: readonly string[];
  readonly base: number;
  readonly slotMs: number;
  readonly firstSlotAt: number;
  readonly proposalBytes: number;
  readonly voteBytes: number;
  readonly shaped: boolean;
}

if (isMainThread) await main();
else await runNode(workerData as NodeData);

async function main(): Promise<void> {
  // V8 flags are a process's: the bench runs again under the ones a node runs under.
  if (!NODE_V8_FLAGS.every((f) => process.execArgv.includes(f))) {
    const r = spawnSync(process.execPath, [...NODE_V8_FLAGS, ...process.argv.slice(1)], { stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
  const { values } = parseBenchArgs({
    options: {
      validators: { type: 'string', default: '21' },
      'block-time': { type: 'string', default: '1s' },
      seconds: { type: 'string', default: '90' },
      warmup: { type: 'string', default: '30' },
      rounds: { type: 'string', default: '3' },
      'proposal-bytes': { type: 'string', default: '1050' },
      'vote-bytes': { type: 'string', default: '330' },
      shaping: { type: 'string', default: 'off' },
    },
  });
  const n = Number(values.validators);
  const slotMs = parseDuration(values['block-time']) ?? Number.NaN;
  if (!(n >= 2) || Number.isNaN(slotMs))
    throw new Error('--validators must be 2 or more and --block-time a duration');
  if (!['off', 'clear', 'both'].includes(values.shaping))
    throw new Error('--shaping must be off, clear or both');
  const cores: number[] = [];
  const byShaping: Record<'off' | 'clear', number[]> = { off: [], clear: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    const shaped = values.shaping === 'clear' || (values.shaping === 'both' && round % 2 === 1);
    const r = await measure(n, slotMs, Number(values.warmup), Number(values.seconds), {
      proposalBytes: Number(values['proposal-bytes']),
      voteBytes: Number(values['vote-bytes']),
      shaped,
    });
    cores.push(r.cores);
    byShaping[shaped ? 'clear' : 'off'].push(r.cores / Math.max(1, r.perNodePerSecond * n));
    console.log(
      `round ${round + 1}${shaped ? ' (shaping layer, clear)' : ''}: ${r.cores.toFixed(3)} cores for ${n} nodes ` +
        `(${r.systemCores.toFixed(3)} of them in the kernel: sockets, epoll, futexes), ` +
        `${r.perNodePerSecond.toFixed(1)} new messages a node a second (median over nodes)`,
    );
  }
  console.log(
    `\n| validators | block time | proposal / vote bytes | rounds | CPU of all nodes, median (range) |\n|---|---|---|---|---|\n` +
      `| ${n} | ${values['block-time']} | ${values['proposal-bytes']} / ${values['vote-bytes']} | ${cores.length} | ` +
      `${median(cores).toFixed(2)} cores (${Math.min(...cores).toFixed(2)}–${Math.max(...cores).toFixed(2)}) |`,
  );
  if (values.shaping === 'both')
    console.log(
      `\nCPU per message received, median: without the shaping layer ${(median(byShaping.off) * 1e6).toFixed(1)} µs, ` +
        `with it (clear) ${(median(byShaping.clear) * 1e6).toFixed(1)} µs`,
    );
}

/** One network of `n` node threads: the process's CPU over `seconds` after `warmup`. */
async function measure(
  n: number,
  slotMs: number,
  warmup: number,
  seconds: number,
  sizes: { proposalBytes: number; voteBytes: number; shaped: boolean },
): Promise<{ cores: number; systemCores: number; perNodePerSecond: number }> {
  const base = await freeBasePort((b) => Array.from({ length: n }, (_, i) => b + i));
  const keySeeds = Array.from({ length: n }, (_, i) => `gossip-floor-${base}-${i}`);
  const firstSlotAt = Date.now() + 5_000;
  const workers = keySeeds.map(
    (_s, index) =>
      new Worker(fileURLToPath(import.meta.url), {
        workerData: { index, keySeeds, base, slotMs, firstSlotAt, ...sizes } satisfies NodeData,
        resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
      }),
  );
  const counts = workers.map(() => 0);
  for (const [i, w] of workers.entries()) {
    w.on('message', (m: { received: number }) => (counts[i] = m.received));
    w.on('error', (e) => console.error(`node ${i}:`, e));
  }
  try {
    await pause(warmup * 1000);
    const before = { cpu: process.cpuUsage(), at: performance.now(), counts: [...counts] };
    await pause(seconds * 1000);
    const cpu = process.cpuUsage(before.cpu);
    const elapsed = (performance.now() - before.at) / 1000;
    const perNode = counts.map((c, i) => (c - before.counts[i]!) / elapsed);
    return {
      cores: (cpu.user + cpu.system) / 1e6 / elapsed,
      systemCores: cpu.system / 1e6 / elapsed,
      perNodePerSecond: median(perNode),
    };
  } finally {
    for (const w of workers) w.postMessage('stop');
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve))));
  }
}

/** One node's network: publishes its slot's messages, accepts every message, reports its count each second. */
async function runNode(d: NodeData): Promise<void> {
  const n = d.keySeeds.length;
  const keys = await Promise.all(d.keySeeds.map((s) => peerKeyFromSeed(new TextEncoder().encode(s))));
  const address = (i: number) => `/ip4/127.0.0.1/tcp/${d.base + i}/p2p/${peerIdOf(keys[i]!)}`;
  const net = await P2PNetwork.start({
    privateKey: keys[d.index]!,
    listenHost: '127.0.0.1',
    listenPort: d.base + d.index,
    bootstrap: dialedIndexes(d.index, n).map(address),
    logger: createLogger({ level: 'error' }),
    ...(d.shaped ? { shaping: new LinkShaping(realTicker(() => performance.now(), { unref: true })) } : {}),
  });
  let received = 0;
  for (const topic of [TOPIC_BLOCKS, TOPIC_VOTES, TOPIC_TXS])
    net.subscribe(topic, () => {
      received++;
      return 'accept';
    });
  // A message of `bytes`, new each time: its slot, its sender and its kind, padded.
  const message = (slot: number, kind: string, bytes: number) =>
    new TextEncoder().encode(`{"slot":${slot},"from":${d.index},"kind":"${kind}"}`.padEnd(bytes, ' '));
  let timer: NodeJS.Timeout | undefined;
  const slot = (k: number) => {
    if (k % n === d.index) void net.publish(TOPIC_BLOCKS, message(k, 'proposal', d.proposalBytes));
    // Votes follow the proposal, as a validator's do once it has the block.
    setTimeout(() => void net.publish(TOPIC_VOTES, message(k, 'prevote', d.voteBytes)), slotMsShare(0.1));
    setTimeout(() => void net.publish(TOPIC_VOTES, message(k, 'precommit', d.voteBytes)), slotMsShare(0.2));
    timer = setTimeout(() => slot(k + 1), d.firstSlotAt + (k + 1) * d.slotMs - Date.now());
  };
  const slotMsShare = (share: number) => Math.round(d.slotMs * share);
  timer = setTimeout(() => slot(0), d.firstSlotAt - Date.now());
  const report = setInterval(() => parentPort!.postMessage({ received }), 1000);
  parentPort!.on('message', (m) => {
    if (m !== 'stop') return;
    clearTimeout(timer);
    clearInterval(report);
    void net.stop().then(() => process.exit(0));
  });
}

/**
 * Benchmark: what the network conditions of `devnet net` do to a chain (issue 41): the block
 * interval and the submit-to-final latency of transactions for N validators as the one-way
 * latency between every two of them grows, as loss grows, and as every node's bandwidth shrinks.
 * One devnet per validator count (process runtime, monitoring off); each condition is put on every
 * node's links (`devnet net NODE … --direction out` for each node: each directed link gets it
 * once), given `--warmup` seconds, then measured over `--seconds` with a light load (2
 * transfers a second from 2 accounts; the testkit's Load: its median first-send-to-confirmed),
 * then cleared. The block interval is the wall time over the heights made meanwhile on
 * validator-0. It prints a table and writes the plot (`--plot`, an SVG file).
 *
 *   npm run build && node devnet/dist/bench/conditions.js [--validators 4,21] [--block-time 1s]
 *     [--latencies 0,50,100,200,500] [--losses 0,1,5,10] [--rates 0,10mbit,1mbit,256kbit]
 *     [--seconds 30] [--warmup 8] [--plot docs/conditions.svg]
 */
import { writeFile } from 'node:fs/promises';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import { pause } from '@chain-devnet/kit/wait';
import { devnetCli } from '../src/harness/cli.js';
import { probeLinks } from '../src/operations/netProbe.js';
import { type Testnet, withTestnet } from '../src/testkit/index.js';
import { lineChartSvg, type Panel } from './svgPlot.js';

const { values } = parseBenchArgs({
  options: {
    validators: { type: 'string', default: '4,21' },
    'block-time': { type: 'string', default: '1s' },
    latencies: { type: 'string', default: '0,50,100,200,500' },
    losses: { type: 'string', default: '0,1,5,10' },
    rates: { type: 'string', default: '0,10mbit,1mbit,256kbit' },
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '8' },
    plot: { type: 'string' },
  },
});
const list = (s: string) => s.split(',').map((x) => x.trim());

/** One condition: its label in the table and plot, and `devnet net` options (none: links clear). */
interface Condition {
  readonly kind: 'latency' | 'loss' | 'rate';
  readonly label: string;
  readonly options: readonly string[];
}

const conditions: Condition[] = [
  ...list(values.latencies).map((ms) => ({
    kind: 'latency' as const,
    label: `${ms} ms`,
    options: ms === '0' ? [] : ['--latency', `${ms}ms`],
  })),
  ...list(values.losses).map((pct) => ({
    kind: 'loss' as const,
    label: `${pct}%`,
    options: pct === '0' ? [] : ['--loss', `${pct}%`],
  })),
  ...list(values.rates).map((rate) => ({
    kind: 'rate' as const,
    label: rate === '0' ? 'unlimited' : rate,
    options: rate === '0' ? [] : ['--rate', rate],
  })),
];

interface Row {
  readonly validators: number;
  readonly condition: Condition;
  readonly intervalMs: number | null;
  readonly p50Ms: number | null;
  readonly p99Ms: number | null;
  readonly confirmed: number;
  /** devnet net --probe from validator-0 to every peer: asked and measured, medians over the links. */
  readonly probe: { askedRtt: number; rtt: number; askedBps: number | null; bps: number | null } | null;
}

/** A transfer the probe makes for a rate: about 2 s of it, within the probe's bound. */
const probeBytes = (c: Condition) =>
  c.kind !== 'rate' || c.options.length === 0
    ? 0
    : Math.min(4_000_000, Math.round(rateBps(c.options[1]!) / 4));
const rateBps = (r: string) =>
  Number(r.replace(/[a-z]+$/, '')) * ({ kbit: 1e3, mbit: 1e6, gbit: 1e9 }[r.replace(/^[0-9.]+/, '')] ?? 1);

async function probed(t: Testnet, c: Condition): Promise<Row['probe']> {
  if (c.kind === 'loss') return null;
  const rows = (await probeLinks(t.devnet, t.names()[0]!, probeBytes(c))).filter((r) => r.measured !== null);
  if (rows.length === 0) return null;
  const up = rows.map((r) => r.measured!.up_bps).filter((x): x is number => x !== null);
  return {
    askedRtt: median(rows.map((r) => r.asked.rtt_ms)),
    rtt: median(rows.map((r) => r.measured!.rtt_ms)),
    askedBps: rows[0]!.asked.up_bps,
    bps: up.length === 0 ? null : median(up),
  };
}

async function net(t: Testnet, args: readonly string[]): Promise<void> {
  const r = await devnetCli(['net', ...args, '--home', t.home]);
  if (r.code !== 0) throw new Error(`devnet net ${args.join(' ')}: ${r.stderr}`);
}

async function measure(t: Testnet, n: number, c: Condition): Promise<Row> {
  for (const name of t.names())
    if (c.options.length > 0) await net(t, [name, ...c.options, '--direction', 'out']);
  try {
    await pause(Number(values.warmup) * 1000);
    const probe = await probed(t, c);
    if (probe !== null)
      console.log(
        `${n} validators, ${c.kind} ${c.label}: probe round trip ${probe.askedRtt} asked, ${probe.rtt.toFixed(1)} ms measured; rate ${probe.askedBps ?? '-'} asked, ${probe.bps ?? '-'} measured`,
      );
    const rpc = t.node(t.names()[0]!).rpc;
    const h0 = (await rpc.status()).height;
    const t0 = performance.now();
    const load = await t.load({
      rate: 2,
      duration: Number(values.seconds),
      accounts: 2,
      mix: { TRANSFER: 1 },
    });
    const r = await load.done();
    const h1 = (await rpc.status()).height;
    const elapsed = performance.now() - t0;
    const row = {
      validators: n,
      condition: c,
      intervalMs: h1 > h0 ? Math.round(elapsed / (h1 - h0)) : null,
      p50Ms: r.latencyMs.p50,
      p99Ms: r.latencyMs.p99,
      confirmed: r.confirmed,
      probe,
    };
    console.log(
      `${n} validators, ${c.kind} ${c.label}: block interval ${row.intervalMs ?? '-'} ms, ` +
        `submit to final p50 ${row.p50Ms ?? '-'} ms, p99 ${row.p99Ms ?? '-'} ms, ${r.confirmed} of ${r.submitted} confirmed`,
    );
    return row;
  } finally {
    if (c.options.length > 0) for (const name of t.names()) await net(t, [name, '--clear']);
  }
}

// Stopped (Ctrl-C, kill), the testkit takes the devnet being measured down (its own handlers).
const rows: Row[] = [];
for (const n of list(values.validators).map(Number))
  await withTestnet(
    {
      name: `bench-conditions-${n}`,
      runtime: 'process',
      manifest: { validators: n, block_time: values['block-time'], epoch_length: 100_000, monitoring: false },
      log: () => undefined,
      invariants: {},
    },
    async (t) => {
      await t.synced();
      for (const c of conditions)
        try {
          rows.push(await measure(t, n, c));
        } catch (e) {
          // A condition the chain cannot keep up under is a result too: its row says so, and the
          // next condition starts from a chain given the time to recover.
          console.log(
            `${n} validators, ${c.kind} ${c.label}: failed: ${(e as Error).message.split('\n')[0]}`,
          );
          rows.push({
            validators: n,
            condition: c,
            intervalMs: null,
            p50Ms: null,
            p99Ms: null,
            confirmed: 0,
            probe: null,
          });
          await t.synced().catch(() => undefined);
        }
    },
  );

console.log(
  `\nblock time ${values['block-time']}, ${values.seconds} s measured per condition after ${values.warmup} s:`,
);
console.log(
  '| validators | condition | block interval (ms) | submit to final p50 (ms) | p99 (ms) | confirmed |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.validators} | ${r.condition.kind} ${r.condition.label} | ${r.intervalMs ?? '-'} | ${r.p50Ms ?? '-'} | ${r.p99Ms ?? '-'} | ${r.confirmed} |`,
  );

console.log(
  '\n`devnet net --probe` from validator-0, medians over its links (one-way latency L on every out: a round trip of 2L):',
);
console.log(
  '| validators | condition | round trip asked (ms) | measured (ms) | rate asked (bit/s) | measured (bit/s) |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  if (r.probe !== null)
    console.log(
      `| ${r.validators} | ${r.condition.kind} ${r.condition.label} | ${r.probe.askedRtt} | ${r.probe.rtt.toFixed(1)} | ${r.probe.askedBps ?? '-'} | ${r.probe.bps ?? '-'} |`,
    );

if (values.plot !== undefined) {
  const counts = [...new Set(rows.map((r) => r.validators))];
  const panels: Panel[] = (['latency', 'loss', 'rate'] as const).flatMap((kind) => {
    const xs = conditions.filter((c) => c.kind === kind);
    const of = (n: number, pick: (r: Row) => number | null) =>
      xs.map((c) => {
        const r = rows.find((x) => x.validators === n && x.condition === c);
        return r === undefined ? null : pick(r);
      });
    const axis = { latency: 'one-way latency', loss: 'loss', rate: 'bandwidth a node' }[kind];
    return [
      {
        title: `Block interval by ${kind}`,
        xLabel: axis,
        xs: xs.map((c) => c.label),
        yLabel: 'ms',
        series: counts.map((n) => ({ label: `${n} validators`, values: of(n, (r) => r.intervalMs) })),
      },
      {
        title: `Submit to final (p50) by ${kind}`,
        xLabel: axis,
        xs: xs.map((c) => c.label),
        yLabel: 'ms',
        series: counts.map((n) => ({ label: `${n} validators`, values: of(n, (r) => r.p50Ms) })),
      },
    ];
  });
  await writeFile(values.plot, lineChartSvg(panels));
  console.log(`\nplot: ${values.plot}`);
}

/**
 * Benchmark: the load generator's achieved rate against a target, by window (transactions in
 * flight per account), and optionally an earlier generator (`--before`: its compiled load.js,
 * which must sit beside this build's testkit modules, e.g. devnet/dist/src/testkit/), side by
 * side on one devnet (process runtime, monitoring off): R rounds, the variants alternating
 * round by round, each a load of `--seconds` at `--rate` from `--accounts` fresh accounts with
 * faults-under-load's mix (80% transfers, 20% delegations). Achieved = confirmed per second of
 * the load's elapsed time; medians over rounds.
 *
 *   npm run build && node devnet/dist/bench/load.js [--rounds 3] [--seconds 20] [--rate 8] [--accounts 4] [--windows 1,8] [--before FILE] [--block-time 400ms] [--validators 4]
 */
import { resolve } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import {
  Load,
  type LoadOptions,
  type LoadReport,
  type NetContext,
  withTestnet,
} from '../src/testkit/index.js';

const { values } = parseBenchArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '20' },
    rate: { type: 'string', default: '8' },
    accounts: { type: 'string', default: '4' },
    windows: { type: 'string', default: '1,8' },
    'block-time': { type: 'string', default: '400ms' },
    validators: { type: 'string', default: '4' },
    before: { type: 'string' },
  },
});

type Start = (net: NetContext, o: LoadOptions) => Promise<{ done(): Promise<LoadReport> }>;
const variants: [string, Start][] = values.windows
  .split(',')
  .map((w) => [`window ${w}`, (net, o) => Load.start(net, { ...o, window: Number(w) })]);
if (values.before !== undefined) {
  const earlier = (await import(resolve(values.before))) as { Load: { start: Start } };
  variants.unshift([`before (${values.before})`, (net, o) => earlier.Load.start(net, o)]);
}

const achieved = (r: LoadReport) => r.confirmed / (r.elapsedMs / 1000);

const runs = new Map<string, LoadReport[]>(variants.map(([label]) => [label, []]));
await withTestnet(
  {
    name: 'bench-load',
    runtime: 'process',
    manifest: {
      validators: Number(values.validators),
      block_time: values['block-time'],
      epoch_length: 1000,
      monitoring: false,
    },
    log: () => undefined,
  },
  async (net) => {
    for (let round = 1; round <= Number(values.rounds); round++)
      for (const [label, start] of variants) {
        const load = await start(net.net, {
          rate: Number(values.rate),
          duration: Number(values.seconds),
          accounts: Number(values.accounts),
          mix: { TRANSFER: 0.8, DELEGATE: 0.2 },
        });
        const r = await load.done();
        runs.get(label)!.push(r);
        console.log(
          `round ${round} ${label}: ${achieved(r).toFixed(2)} tx/s confirmed ` +
            `(submitted ${r.submitted}, rejected ${r.rejected}, failed ${r.failed}, pending ${r.pending}, resent ${r.resent}, p50 ${r.latencyMs.p50} ms)`,
        );
      }
  },
);

console.log(
  `\n${values.validators} validators, ${values['block-time']} blocks, target ${values.rate} tx/s from ${values.accounts} accounts, ${values.seconds} s per round:`,
);
console.log(
  '| generator | tx/s per round | median tx/s | median p50 latency (ms) | median p99 latency (ms) |',
);
console.log('| --- | --- | --- | --- | --- |');
for (const [label, rs] of runs)
  console.log(
    `| ${label} | ${rs.map((r) => achieved(r).toFixed(2)).join(', ')} | ${median(rs.map(achieved)).toFixed(2)} | ` +
      `${median(rs.map((r) => r.latencyMs.p50 ?? 0))} | ${median(rs.map((r) => r.latencyMs.p99 ?? 0))} |`,
  );

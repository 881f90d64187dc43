/**
 * RPC benchmark (docs/BENCHMARKS.md): requests per second of GET /status and GET /balance on a
 * real chain-node process, beside a bare Koa route in its own process, measured in alternating
 * rounds in one run so the ratio is fair on a noisy machine; then transactions admitted per
 * second into the mempool over HTTP, beside the signature-check ceiling measured in the same run.
 * Traffic goes to 127.0.0.1 only; every round is bounded in time.
 *   npm run bench:rpc [-- --rounds 3 --seconds 5 --connections 50]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { startProgram, stopAllPrograms } from '@chain-devnet/kit/process';
import { median } from '@chain-devnet/kit/values';
import autocannon from 'autocannon';
import { coins, type Tx, txHash, txToJson } from '../src/chain/index.js';
import { checkTxSignature } from '../src/chain/tx/signing.js';
import { buildTx } from '../src/client/txBuilder.js';
import { hexToBytes } from '../src/crypto/hex.js';
import { chainNode, startNodeProcess } from '../tests/support/processes.js';

const { values } = parseBenchArgs({
  options: { rounds: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 3);
const SECONDS = Number(values.seconds ?? 5);
const CONNECTIONS = Number(values.connections ?? 50);
const BARE = new URL('./bareKoa.js', import.meta.url).pathname;

async function load(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function main() {
  const home = await mkdtemp(join(tmpdir(), 'bench-rpc-'));
  try {
    const init = await chainNode([
      'init',
      '--home',
      home,
      '--seed',
      'bench',
      '--accounts',
      '40',
      '--block-time',
      '1s',
    ]);
    if (init.code !== 0) throw new Error(`chain-node init: ${init.stderr}`);
    const { url: nodeUrl, client } = await startNodeProcess(home);
    const bareUrl = (
      await startProgram({ args: [BARE] }).waitForLine(/^(http:\/\/\S+)$/, 15_000, 'its URL')
    )[1]!;
    const accounts = JSON.parse(await readFile(join(home, 'accounts.json'), 'utf8')) as {
      private_key: string;
      address: string;
    }[];

    const targets = {
      bare: `${bareUrl}/bare`,
      status: `${nodeUrl}/status`,
      balance: `${nodeUrl}/balance/${accounts[0]!.address}`,
    };
    const runs: Record<keyof typeof targets, number[]> = { bare: [], status: [], balance: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of Object.keys(targets) as (keyof typeof targets)[])
        runs[name].push(await load(targets[name]));
    }

    // Transactions admitted per second over HTTP: pre-signed transfers from 40 senders.
    const txs: Tx[] = [];
    for (const [i, a] of accounts.entries()) {
      for (let n = 0; n < 25; n++) {
        txs.push(
          await buildTx(client, {
            type: 'TRANSFER',
            privateKey: hexToBytes(a.private_key),
            to: accounts[(i + 1) % accounts.length]!.address,
            amount: coins(1),
            nonce: n,
            chainId: 'chain-devnet-1',
            timestamp: 1,
          }),
        );
      }
    }
    // 16 concurrent clients; each sender belongs to one client, so its nonces arrive in order.
    const order = txs;
    const workers = 16;
    let admitted = 0;
    const refused = new Map<string, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        for (const tx of order.filter((_t, i) => Math.floor(i / 25) % workers === w)) {
          const res = await client.sendTx(txToJson(tx));
          if (res.status === 'received') admitted++;
          else refused.set(res.error ?? '?', (refused.get(res.error ?? '?') ?? 0) + 1);
        }
      }),
    );
    if (refused.size > 0) process.stderr.write(`refused: ${JSON.stringify([...refused])}\n`);
    const admitSeconds = (performance.now() - started) / 1000;

    // The ceiling in the same run: signature checks per second on one core, times cores.
    const sample = txs.slice(0, 300);
    const t0 = performance.now();
    for (const tx of sample) checkTxSignature(tx, 'chain-devnet-1');
    const checksPerCore = sample.length / ((performance.now() - t0) / 1000);
    void txHash;

    const m = { bare: median(runs.bare), status: median(runs.status), balance: median(runs.balance) };
    const rows = [
      `| route | req/s per round | median req/s | ratio to bare Koa |`,
      `|---|---|---|---|`,
      ...(['bare', 'status', 'balance'] as const).map(
        (k) =>
          `| ${k === 'bare' ? 'bare Koa GET /bare' : k === 'status' ? 'GET /status' : 'GET /balance/{address}'} | ${runs[k].map((x) => Math.round(x)).join(', ')} | ${Math.round(m[k])} | ${(m[k] / m.bare).toFixed(2)} |`,
      ),
    ];
    process.stdout.write(
      `RPC benchmark: ${ROUNDS} alternating rounds of ${SECONDS}s, ${CONNECTIONS} connections, client and servers on the same ${cpus().length} cores\n\n` +
        `${rows.join('\n')}\n\n` +
        `Mempool admission over HTTP (16 concurrent clients, 40 senders, ${order.length} pre-signed transfers): ` +
        `${admitted} admitted in ${admitSeconds.toFixed(2)} s = ${Math.round(admitted / admitSeconds)} tx/s\n` +
        `Signature-check ceiling in the same run: ${Math.round(checksPerCore)} checks/s on one core ` +
        `(x ${cpus().length} cores = ${Math.round(checksPerCore * cpus().length)}/s); admission uses one core of the node: ` +
        `${((admitted / admitSeconds / checksPerCore) * 100).toFixed(0)}% of one core's ceiling\n`,
    );
  } finally {
    await stopAllPrograms();
    await rm(home, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});

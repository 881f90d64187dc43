#!/usr/bin/env node
/**
 * chain-market: the task marketplace of the specification, a service beside the chain
 * (docs/MARKET.md), and its sample worker.
 *   chain-market start  --rpc URL --key FILE --home DIR [--port 8093] [--host 127.0.0.1] …
 *   chain-market worker --market URL --rpc URL --key FILE [--poll 500ms]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAmount } from '../chain/index.js';
import { RpcClient } from '../client/rpcClient.js';
import { MarketClient } from '../market/client.js';
import { DEFAULT_TRANSFER_FEE, startMarket } from '../market/process.js';
import { DEFAULT_RULES } from '../market/service.js';
import { runWorker } from '../market/worker.js';
import { readKeyFile } from '../node/keyFile.js';
import { parseDuration } from '../util/duration.js';
import { createLogger, type LogFormat } from '../util/logger.js';

const HELP = `chain-market — the task marketplace beside the chain (docs/MARKET.md), and a sample worker

Usage:
  chain-market start [options]    run the market (the default command)
  chain-market worker [options]   run the sample worker: claims pending tasks, computes a
                                  deterministic result, commits it with SUBMIT_RESULT
  chain-market help               this text

start options:
  --rpc URL             the node whose RPC the market follows and sends through (required)
  --key FILE            the escrow account's key file (JSON with private_key; required)
  --home DIR            the market's data folder (default ./.chain-market)
  --port N              HTTP port (default 8093; 0: any free port)
  --host ADDR           listen address (default 127.0.0.1; 0.0.0.0 in containers)
  --poll D              how often it asks the node for new blocks (default 250ms)
  --fee AMOUNT          fee of each payout transfer (default 21000000wei, the TRANSFER minimum)
  --default-deadline D  the deadline of a task posted without one, after its creation (default 24h)
  --max-deadline D      the latest deadline accepted, after the chain time (default 720h)
  --funding-wait D      how long POST /tasks waits for its payment to be final (default 20s)
  --claim-window D      a claim with no result in a block within D (chain time) lapses: the task
                        is pending again and that worker may not claim it again (default 1h)
  --max-claims N        tasks one worker may hold in progress at once (default 8)
  --log-format F        json (default) or pretty

worker options:
  --market URL          the market (required)
  --rpc URL             a node, for SUBMIT_RESULT (required)
  --key FILE            the worker account's key file (required; it pays the fees)
  --poll D              how often it looks for pending tasks (default 500ms)
  --min-time-left D     claims only a task with this much chain time left before its deadline
                        (default 30s): one it cannot finish in time is left to fail and refund
  --log-format F        json (default) or pretty

The market stops cleanly on SIGTERM/SIGINT; after a crash it resumes from its store, sending
every planned payout not yet in a block again, as it was signed (never a second payment).
`;

class UsageError extends Error {}

function seconds(name: string, text: string | undefined, fallback: number): number {
  return Math.round(ms(name, text, fallback * 1000) / 1000);
}

function ms(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const v = parseDuration(text);
  if (v === null || v <= 0)
    throw new UsageError(`--${name} must be a duration such as 500ms, 2s or 24h, got ${text}`);
  return v;
}

function required(name: string, v: string | undefined): string {
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

async function untilSignal(stop: () => Promise<void>): Promise<void> {
  await new Promise<void>((done) => {
    const on = () => stop().then(done, done);
    process.once('SIGTERM', on);
    process.once('SIGINT', on);
  });
}

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  const command = first === undefined || first.startsWith('-') ? 'start' : first;
  const args = command === first ? argv.slice(1) : argv;
  if (command === 'help' || args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { values } = parseArgs({
    args,
    options: {
      rpc: { type: 'string' },
      key: { type: 'string' },
      home: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      poll: { type: 'string' },
      fee: { type: 'string' },
      'default-deadline': { type: 'string' },
      'max-deadline': { type: 'string' },
      'funding-wait': { type: 'string' },
      'claim-window': { type: 'string' },
      'max-claims': { type: 'string' },
      market: { type: 'string' },
      'min-time-left': { type: 'string' },
      'log-format': { type: 'string' },
    },
  });
  const format = (values['log-format'] ?? 'json') as LogFormat;
  if (format !== 'json' && format !== 'pretty') throw new UsageError('--log-format must be json or pretty');
  const logger = createLogger({ format });
  process.on('unhandledRejection', (e) => logger.error('unhandled rejection', { error: e as Error }));

  if (command === 'worker') {
    const market = new MarketClient(required('market', values.market));
    const rpc = new RpcClient(required('rpc', values.rpc));
    const key = await readKeyFile(resolve(required('key', values.key)));
    const abort = new AbortController();
    const running = runWorker({
      market,
      rpc,
      key,
      pollMs: ms('poll', values.poll, 500),
      minTimeLeftSeconds: seconds('min-time-left', values['min-time-left'], 30),
      logger,
      signal: abort.signal,
    });
    logger.info('sample worker running', { market: market.baseUrl, node: rpc.baseUrl });
    await untilSignal(async () => {
      abort.abort();
      await running;
    });
    return 0;
  }
  if (command !== 'start') throw new UsageError(`unknown command ${command}`);

  const port = Number(values.port ?? '8093');
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got ${values.port}`);
  const fee = values.fee === undefined ? DEFAULT_TRANSFER_FEE : parseAmount(values.fee);
  if (fee === null) throw new UsageError(`--fee must be an amount such as 21000000wei, got ${values.fee}`);
  const maxClaims = Number(values['max-claims'] ?? DEFAULT_RULES.maxClaimsPerWorker);
  if (!Number.isInteger(maxClaims) || maxClaims < 1 || maxClaims > 1_000_000)
    throw new UsageError(`--max-claims must be an integer from 1 to 1000000, got ${values['max-claims']}`);
  const crash = process.env.CHAIN_MARKET_CRASH_AFTER_SENDS;
  const market = await startMarket({
    home: resolve(values.home ?? '.chain-market'),
    rpcUrl: required('rpc', values.rpc),
    keyFile: resolve(required('key', values.key)),
    host: values.host ?? '127.0.0.1',
    port,
    pollMs: ms('poll', values.poll, 250),
    fee,
    rules: {
      defaultDeadlineSeconds: seconds(
        'default-deadline',
        values['default-deadline'],
        DEFAULT_RULES.defaultDeadlineSeconds,
      ),
      maxDeadlineSeconds: seconds('max-deadline', values['max-deadline'], DEFAULT_RULES.maxDeadlineSeconds),
      claimWindowSeconds: seconds('claim-window', values['claim-window'], DEFAULT_RULES.claimWindowSeconds),
      maxClaimsPerWorker: maxClaims,
    },
    fundingWaitMs: ms('funding-wait', values['funding-wait'], 20_000),
    maxLagBlocks: 10,
    crashAfterSends: crash === undefined || crash === '' ? null : Number(crash),
    logger,
  });
  await untilSignal(() => market.stop());
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(
        `chain-market: ${(e as Error).message}\nRun chain-market --help for the options.\n`,
      );
      process.exit(2);
    }
    process.stderr.write(`chain-market: ${(e as Error).message ?? String(e)}\n`);
    process.exit(1);
  },
);

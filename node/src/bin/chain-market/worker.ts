/**
 * `chain-market worker`: the sample worker. It claims pending tasks, computes a deterministic
 * result and commits it with SUBMIT_RESULT, until SIGTERM or SIGINT.
 */
import { resolve } from 'node:path';
import { defineCommand, duration, text } from '@chain-devnet/kit/cli';
import { failoverRpc } from '../../client/failover.js';
import { readKeyFile } from '../../home/keyFile.js';
import { MarketClient } from '../../market/client.js';
import { runWorker } from '../../market/worker.js';
import { logFormatOption, processLogger, untilSignal } from '../common.js';

export const workerCommand = defineCommand({
  name: 'worker',
  summary:
    'run the sample worker: claims pending tasks, computes a deterministic result, commits it with SUBMIT_RESULT',
  options: {
    market: text('the market', { valueName: 'URL', required: true }),
    rpc: text(
      'a node for SUBMIT_RESULT, or several (comma-separated): the next is used while one gives no answer',
      { valueName: 'URL[,URL…]', required: true },
    ),
    key: text('key file of the worker account, which pays the fees', { valueName: 'FILE', required: true }),
    poll: duration('how often it looks for pending tasks', { default: 500 }),
    'min-time-left': duration(
      'claims only a task with this much chain time left before its deadline: one it cannot finish in ' +
        'time is left to fail and refund',
      { default: 30_000 },
    ),
    'log-format': logFormatOption('json'),
  },
  run: async ({ values: v }) => {
    const logger = processLogger(v['log-format']);
    const market = new MarketClient(v.market);
    const rpc = failoverRpc(
      v.rpc
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== ''),
      undefined,
      (to, from, why) => logger.warn('the worker follows another node', { to, from, why }),
    );
    const key = await readKeyFile(resolve(v.key));
    const abort = new AbortController();
    const running = runWorker({
      market,
      rpc,
      key,
      pollMs: v.poll,
      minTimeLeftSeconds: Math.round(v['min-time-left'] / 1000),
      logger,
      signal: abort.signal,
    });
    logger.info('sample worker running', { market: market.baseUrl, nodes: v.rpc });
    await untilSignal(async () => {
      abort.abort();
      await running;
    });
    return 0;
  },
});

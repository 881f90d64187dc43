/** `chain-market start`: the task market beside a node (docs/MARKET.md), until SIGTERM or SIGINT. */
import { resolve } from 'node:path';
import { defineCommand, duration, integer, text, valueOption } from '@chain-devnet/kit/cli';
import { parseAmount } from '../../chain/index.js';
import { marketCrashAfterSends } from '../../faults/marketCrash.js';
import { DEFAULT_TRANSFER_FEE, startMarket } from '../../market/process.js';
import { DEFAULT_RULES } from '../../market/rules.js';
import { logFormatOption, processLogger, untilSignal } from '../common.js';

const seconds = (ms: number) => Math.round(ms / 1000);

export const startCommand = defineCommand({
  name: 'start',
  summary: 'run the market (the default command)',
  options: {
    rpc: text(
      'the node whose RPC the market follows and sends through, or several (comma-separated): the next while one gives no answer',
      {
        valueName: 'URL[,URL…]',
        required: true,
      },
    ),
    key: text('key file of the escrow account, JSON with private_key', { valueName: 'FILE', required: true }),
    home: text('data folder of the market', { valueName: 'DIR', default: './.chain-market' }),
    port: integer('HTTP port; 0: any free port', { min: 0, max: 65_535, default: 8093 }),
    host: text('listen address; 0.0.0.0 in containers', { valueName: 'ADDR', default: '127.0.0.1' }),
    poll: duration('how often it asks the node for new blocks', { default: 250 }),
    fee: valueOption(
      'fee of each payout transfer; the default is the TRANSFER minimum',
      { default: DEFAULT_TRANSFER_FEE },
      { valueName: 'AMOUNT', expected: 'an amount such as 21000000wei', read: parseAmount },
      (wei) => `${wei}wei`,
    ),
    'default-deadline': duration('the deadline of a task posted without one, after its creation', {
      default: DEFAULT_RULES.defaultDeadlineSeconds * 1000,
    }),
    'max-deadline': duration('the latest deadline accepted, after the chain time', {
      default: DEFAULT_RULES.maxDeadlineSeconds * 1000,
    }),
    'funding-wait': duration('how long POST /tasks waits for its payment to be final', { default: 20_000 }),
    'claim-window': duration(
      'a claim with no result in a block within this (chain time) lapses: the task is pending again and that worker may not claim it again',
      { default: DEFAULT_RULES.claimWindowSeconds * 1000 },
    ),
    'max-claims': integer('tasks one worker may hold in progress at once', {
      min: 1,
      max: 1_000_000,
      default: DEFAULT_RULES.maxClaimsPerWorker,
    }),
    'log-format': logFormatOption('json'),
  },
  details:
    'The market stops cleanly on SIGTERM/SIGINT; after a crash it resumes from its store, sending every ' +
    'planned payout not yet in a block again, as it was signed (never a second payment).',
  run: async ({ values: v }) => {
    const logger = processLogger(v['log-format']);
    const market = await startMarket({
      home: resolve(v.home),
      rpcUrl: v.rpc,
      keyFile: resolve(v.key),
      host: v.host,
      port: v.port,
      pollMs: v.poll,
      fee: v.fee,
      rules: {
        defaultDeadlineSeconds: seconds(v['default-deadline']),
        maxDeadlineSeconds: seconds(v['max-deadline']),
        claimWindowSeconds: seconds(v['claim-window']),
        maxClaimsPerWorker: v['max-claims'],
      },
      fundingWaitMs: v['funding-wait'],
      maxLagBlocks: 10,
      crashAfterSends: marketCrashAfterSends(process.env),
      logger,
    });
    await untilSignal(() => market.stop());
    return 0;
  },
});

/**
 * `chain-node dev`: a local one-node chain in one command: init --home when it has no genesis
 * (seed "dev", 1 s blocks), then start with readable logs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand, text } from '@chain-devnet/kit/cli';
import { initHome } from '../../commands/init.js';
import { logFormatOption } from '../common.js';
import { printAccounts } from './init.js';
import { genesisOptions, homeOf, homeOption, START_DETAILS, startOptions } from './options.js';
import { runNode } from './start.js';

/** The block time of a new dev chain when --block-time does not say. */
const DEV_BLOCK_TIME_MS = 1000;

export const devCommand = defineCommand({
  name: 'dev',
  summary:
    'a local one-node chain: init --home if it has no genesis (seed "dev", 1 s blocks), then start with readable logs',
  options: {
    home: homeOption,
    ...startOptions,
    ...genesisOptions,
    seed: text('the new chain derives every key from S', { valueName: 'S', default: 'dev' }),
    'log-format': logFormatOption('pretty'),
  },
  details: START_DETAILS,
  run: async ({ values: v }) => {
    const home = homeOf(v.home);
    if (!existsSync(join(home, 'genesis.json'))) {
      const result = await initHome({
        home,
        network: 'devnet',
        chainId: null,
        blockTimeMs: v['block-time'] ?? DEV_BLOCK_TIME_MS,
        epochLength: v['epoch-length'] ?? null,
        accounts: v.accounts,
        seed: v.seed,
        force: false,
        genesisTime: Math.floor(Date.now() / 1000),
        protocolVersion: v['protocol-version'] ?? null,
      });
      process.stdout.write(`Initialized ${home} (seed ${v.seed}).\n`);
      printAccounts(result.accounts, home);
    }
    return runNode(home, v, v['log-format']);
  },
});

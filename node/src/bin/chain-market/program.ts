/** The chain-market program: its commands, one declaration each (a table tests read too). */
import type { Program } from '@chain-devnet/kit/cli';
import { startCommand } from './start.js';
import { workerCommand } from './worker.js';

export const CHAIN_MARKET: Program = {
  name: 'chain-market',
  summary: 'the task marketplace beside the chain (docs/MARKET.md), and a sample worker',
  commands: [startCommand, workerCommand],
  defaultCommand: 'start',
  notes: null,
};

/** The chain-node program: its commands, one declaration each (a table tests read too). */
import type { Program } from '@chain-devnet/kit/cli';
import { devCommand } from './dev.js';
import { initCommand } from './init.js';
import { startCommand } from './start.js';
import { testnetCommand } from './testnet.js';
import { txSendCommand } from './txSend.js';

export const CHAIN_NODE: Program = {
  name: 'chain-node',
  summary: 'a proof-of-authority chain node',
  commands: [initCommand, startCommand, devCommand, testnetCommand, txSendCommand],
  defaultCommand: 'start',
  notes:
    'Quick start:\n  chain-node init --home ./.chain-node --block-time 1s && chain-node start --home ./.chain-node',
};

/** `chain-node tx send`: sign a transfer with a key of --home, send it, and wait for its receipt. */
import { defineCommand, flag, text } from '@chain-devnet/kit/cli';
import { sendTransfer } from '../../commands/txCommand.js';
import { homeOf, homeOption } from './options.js';

export const txSendCommand = defineCommand({
  name: 'tx send',
  summary: 'sign a transfer with a key of --home and wait for its receipt',
  options: {
    home: homeOption,
    from: text(
      'index of a developer account in <home>/accounts.json, "validator", a key file, or a private key in hex',
      { valueName: 'KEY', required: true },
    ),
    to: text('coin1… recipient', { valueName: 'ADDRESS', required: true }),
    amount: text('e.g. 1.5coin, 100coins, 2500wei', { valueName: 'A', required: true }),
    rpc: text('node RPC', { valueName: 'URL', default: 'http://127.0.0.1:8000' }),
    'no-wait': flag('return once the node has accepted it'),
  },
  run: ({ values: v }) =>
    sendTransfer(
      { home: homeOf(v.home), rpc: v.rpc, from: v.from, to: v.to, amount: v.amount, wait: !v['no-wait'] },
      (line) => process.stdout.write(`${line}\n`),
    ),
});

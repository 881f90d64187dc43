/** `devnet tx KIND`: sign a transaction with a devnet key, send it, and wait for its receipt. */

import { commandHelp, defineCommand, flag, text } from '@chain-devnet/kit/cli';
import type { TxType } from '@chain-devnet/node/chain';
import { DevnetError } from '../../base/errors.js';
import { Devnet } from '../../devnet/devnet.js';
import type { TxJson } from '../../json/jsonShapes.js';
import { describeOutcome, sendTx } from '../../operations/tx.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

const TX_KINDS: Record<string, TxType> = {
  send: 'TRANSFER',
  transfer: 'TRANSFER',
  stake: 'STAKE',
  unstake: 'UNSTAKE',
  delegate: 'DELEGATE',
  undelegate: 'UNDELEGATE',
  unjail: 'UNJAIL',
  'update-validator': 'UPDATE_VALIDATOR',
};

export const txCommand = defineCommand({
  name: 'tx',
  summary:
    'sign and send a transaction with a devnet key: send, stake, unstake, delegate, undelegate, unjail, update-validator',
  options: {
    from: text(
      "a funded account (account-0 …), a node name (its validator key), or a 64-hex private key; never the task market's accounts (market, market-worker: their keys are the market's)",
      {
        valueName: 'NAME_OR_KEY',
      },
    ),
    to: text('send: the recipient, an account name or an address', { valueName: 'ACCOUNT_OR_ADDRESS' }),
    validator: text('delegate, undelegate: the validator, a node name or an address', {
      valueName: 'NODE_OR_ADDRESS',
    }),
    amount: text('e.g. 1.5coin, 100coins, 2500wei', { valueName: 'A' }),
    name: text('stake, update-validator: the name of the validator', { valueName: 'N' }),
    commission: text('stake, update-validator: the commission rate', { valueName: 'RATE' }),
    'reward-address': text('stake, update-validator: where rewards go', { valueName: 'ADDR' }),
    memo: text('send: a memo', { valueName: 'TEXT' }),
    node: text('the node it is sent to (default validator-0)', { valueName: 'NODE' }),
    'no-wait': flag('return once the node has accepted it, without waiting for the receipt'),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [{ name: 'KIND', description: `one of ${Object.keys(TX_KINDS).join(', ')}` }],
  details: `Each kind and what it takes:
  send              --to ACCOUNT_OR_ADDRESS --amount A [--memo TEXT]
  stake             --amount A [--name N] [--commission RATE] [--reward-address ADDR]
  unstake           --amount A
  delegate          --validator NODE_OR_ADDRESS --amount A
  undelegate        --validator NODE_OR_ADDRESS --amount A
  unjail            (pays the unjail fee)
  update-validator  [--name N] [--commission RATE] [--reward-address ADDR]

--from is required. Waits for the receipt and prints it.`,
  run: async ({ values: v, positionals }) => {
    const kind = positionals[0];
    if (kind === undefined) {
      process.stdout.write(commandHelp('devnet', txCommand));
      return 0;
    }
    const type = TX_KINDS[kind];
    if (type === undefined)
      throw new DevnetError('BAD_FLAG', `devnet tx ${kind}: kinds are ${Object.keys(TX_KINDS).join(', ')}`);
    if (v.from === undefined)
      throw new DevnetError('BAD_FLAG', '--from is required (an account name, a node name or a hex key)');
    const d = await Devnet.open(homeOf(v.home));
    const to = v.to ?? v.validator;
    const options = {
      type,
      from: v.from,
      wait: !v['no-wait'],
      ...(to === undefined ? {} : { to }),
      ...(v.amount === undefined ? {} : { amount: v.amount }),
      ...(v.name === undefined ? {} : { name: v.name }),
      ...(v.commission === undefined ? {} : { commission: v.commission }),
      ...(v['reward-address'] === undefined ? {} : { rewardAddress: v['reward-address'] }),
      ...(v.memo === undefined ? {} : { memo: v.memo }),
      ...(v.node === undefined ? {} : { node: v.node }),
    };
    const r = await sendTx(d, options);
    if (v.json) printJson<TxJson>(r);
    else {
      out(describeOutcome(options, r));
      if (r.receipt !== null) out(JSON.stringify(r.receipt));
    }
    const ok = r.submit.status !== 'rejected' && (r.receipt === null || r.receipt.status === 'confirmed');
    return ok ? 0 : 1;
  },
});

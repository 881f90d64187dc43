/**
 * `chain-node tx send`: signs a TRANSFER with a key from the home folder (a developer account
 * by index, or the validator key) or a hex key, sends it, waits for the receipt and prints it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatCoins, parseAmount } from '../chain/index.js';
import { RpcClient } from '../client/rpcClient.js';
import { buildTx } from '../client/txBuilder.js';
import { ACCOUNT_PREFIX, isAddress } from '../crypto/address.js';
import { hexToBytes, isHex } from '../crypto/hex.js';
import { readGenesisFile } from '../home/genesisFile.js';
import { readKeyFile } from '../home/keyFile.js';

export interface SendOptions {
  readonly home: string;
  readonly rpc: string;
  readonly from: string;
  readonly to: string;
  readonly amount: string;
  readonly wait: boolean;
}

async function resolveKey(home: string, from: string): Promise<Uint8Array> {
  if (/^\d+$/.test(from)) {
    const accounts = JSON.parse(await readFile(join(home, 'accounts.json'), 'utf8')) as {
      private_key: string;
    }[];
    const account = accounts[Number(from)];
    if (account === undefined)
      throw new Error(`--from ${from}: ${join(home, 'accounts.json')} has ${accounts.length} accounts`);
    return hexToBytes(account.private_key, 32);
  }
  if (from === 'validator') return readKeyFile(join(home, 'validator_key.json'));
  if (isHex(from, 32)) return hexToBytes(from);
  return readKeyFile(from);
}

export async function sendTransfer(o: SendOptions, print: (line: string) => void): Promise<number> {
  if (!isAddress(o.to, ACCOUNT_PREFIX)) throw new Error(`--to must be a coin1 address, got ${o.to}`);
  const amount = parseAmount(o.amount);
  if (amount === null || amount === 0n)
    throw new Error(`--amount must be like 1.5coin or 1000wei, got ${o.amount}`);
  const genesis = await readGenesisFile(join(o.home, 'genesis.json'));
  const client = new RpcClient(o.rpc);
  const tx = await buildTx(client, {
    type: 'TRANSFER',
    privateKey: await resolveKey(o.home, o.from),
    to: o.to,
    amount,
    chainId: genesis.state.params.chainId,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const sent = await client.sendTx(tx);
  if (sent.status === 'rejected') {
    print(`rejected: ${sent.error}`);
    return 1;
  }
  print(`sent ${formatCoins(amount)} coin from ${tx.from} to ${o.to}: tx ${sent.tx_hash}`);
  if (!o.wait) return 0;
  const receipt = await client.waitForReceipt(sent.tx_hash);
  print(JSON.stringify(receipt));
  return receipt.status === 'confirmed' ? 0 : 1;
}

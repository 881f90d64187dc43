/**
 * `devnet tx …`: signs a transaction with one of the devnet's keys (a funded account or a node's
 * validator key, by name) or a hex key, sends it to a running node and waits for its receipt.
 */
import {
  formatCoins,
  PAYLOAD_FIELDS,
  type PayloadField,
  parseAmount,
  RECIPIENT_KIND,
  rateToPpm,
  TX_TYPES,
  type TxPayload,
  type TxType,
} from '@chain-devnet/node/chain';
import type { ReceiptAnswer, RpcClient } from '@chain-devnet/node/client';
import { buildTx } from '@chain-devnet/node/client';
import { ACCOUNT_PREFIX, hexToBytes, isAddress, isHex, VALIDATOR_PREFIX } from '@chain-devnet/node/crypto';
import { DevnetError } from '../base/errors.js';
import type { Devnet } from '../devnet/devnet.js';
import { isServiceAccount, senderAccounts } from '../spec/networkSpec.js';

export interface TxOptions {
  readonly type: TxType;
  readonly from: string;
  readonly to?: string;
  readonly amount?: string;
  readonly name?: string;
  readonly commission?: string;
  readonly rewardAddress?: string;
  readonly memo?: string;
  /** SUBMIT_RESULT: the market task (a lowercase UUID) and the result's hash (64 hex). */
  readonly taskId?: string;
  readonly resultHash?: string;
  /** UPGRADE_PLAN, UPGRADE_CANCEL: the plan signed (docs/RULES.md, "Upgrade plans"). */
  readonly targetVersion?: string;
  readonly upgradeHeight?: number;
  /** Node whose RPC receives it; default: the first node that answers. */
  readonly node?: string;
  readonly wait: boolean;
}

/** The fields of TxOptions a transaction type's data comes from. */
export type TxField =
  | 'to'
  | 'amount'
  | 'name'
  | 'commission'
  | 'rewardAddress'
  | 'memo'
  | 'taskId'
  | 'resultHash'
  | 'targetVersion'
  | 'upgradeHeight';

/** The option each payload field of the chain comes from. */
const PAYLOAD_OPTION: Readonly<Record<PayloadField, TxField>> = {
  memo: 'memo',
  name: 'name',
  commissionPpm: 'commission',
  rewardAddress: 'rewardAddress',
  taskId: 'taskId',
  resultHash: 'resultHash',
  targetVersion: 'targetVersion',
  upgradeHeight: 'upgradeHeight',
};

/** The types that move an amount (a TRANSFER, a stake, a delegation): it is required and not 0. */
const AMOUNT_TYPES: readonly TxType[] = ['TRANSFER', 'STAKE', 'UNSTAKE', 'DELEGATE', 'UNDELEGATE'];

/**
 * What each type takes, from the chain's own tables (RECIPIENT_KIND, PAYLOAD_FIELDS): `devnet tx`
 * and the scenario file's tx step both read it, so every type is expressible and nothing else.
 */
export const TX_FIELDS: Readonly<Record<TxType, { required: TxField[]; allowed: TxField[] }>> =
  Object.fromEntries(
    TX_TYPES.map((t) => {
      const recipient: TxField[] = RECIPIENT_KIND[t] === 'none' ? [] : ['to'];
      const amount: TxField[] = AMOUNT_TYPES.includes(t) ? ['amount'] : [];
      const payload = PAYLOAD_FIELDS[t];
      return [
        t,
        {
          required: [...recipient, ...amount, ...payload.required.map((f) => PAYLOAD_OPTION[f])],
          allowed: [...recipient, ...amount, ...payload.allowed.map((f) => PAYLOAD_OPTION[f])],
        },
      ];
    }),
  ) as Record<TxType, { required: TxField[]; allowed: TxField[] }>;

export interface TxOutcome {
  readonly tx_hash: string;
  readonly from: string;
  readonly node: string;
  readonly submit: { status: string; error?: string };
  readonly receipt: ReceiptAnswer | null;
}

/**
 * A key by name: a funded account (account-0, …), a node (its validator key), or 64 hex digits.
 * Never a service's account (the market's escrow, its worker), by name or by key: its key
 * belongs to that service, and a transaction from it takes a nonce the service allocated.
 */
export function keyOf(devnet: Devnet, from: string): Uint8Array {
  const service = devnet.spec.accounts.find(
    (a) => isServiceAccount(a.name) && (a.name === from || a.key.private_key === from),
  );
  if (service !== undefined)
    throw new DevnetError(
      'BAD_FLAG',
      `--from ${service.name}: that account's key belongs to the devnet's task market (its nonces are the market's: docs/MARKET.md); send from a developer account`,
    );
  const account = senderAccounts(devnet.spec).find((a) => a.name === from);
  if (account !== undefined) return hexToBytes(account.key.private_key, 32);
  const node = devnet.nodes.find((n) => n.name === from);
  if (node !== undefined) return hexToBytes(node.key.private_key, 32);
  if (isHex(from, 32)) return hexToBytes(from, 32);
  throw new DevnetError(
    'BAD_FLAG',
    `--from ${from}: not an account (${senderAccounts(devnet.spec)
      .map((a) => a.name)
      .join(', ')}), a node name, or a 64-hex private key`,
  );
}

/** A validator by node name or coinvalcons address. */
export function validatorAddressOf(devnet: Devnet, who: string): string {
  const node = devnet.nodes.find((n) => n.name === who);
  if (node !== undefined) return node.key.validator_address;
  if (isAddress(who, VALIDATOR_PREFIX)) return who;
  throw new DevnetError('BAD_FLAG', `--validator ${who}: not a node name or a coinvalcons1… address`);
}

/** An account by name (account or node) or coin1 address. */
export function accountAddressOf(devnet: Devnet, who: string): string {
  const account =
    devnet.spec.accounts.find((a) => a.name === who) ?? devnet.nodes.find((n) => n.name === who);
  if (account !== undefined) return account.key.address;
  if (isAddress(who, ACCOUNT_PREFIX)) return who;
  throw new DevnetError('BAD_FLAG', `--to ${who}: not an account or node name, or a coin1… address`);
}

function amountOf(text: string | undefined, required: boolean): bigint | undefined {
  if (text === undefined) {
    if (required) throw new DevnetError('BAD_FLAG', '--amount is required (e.g. 1.5coin, 100coins, 2500wei)');
    return undefined;
  }
  const a = parseAmount(text);
  if (a === null || a === 0n)
    throw new DevnetError('BAD_FLAG', `--amount must be like 1.5coin or 2500wei, got ${text}`);
  return a;
}

/**
 * What sending a transaction needs of a network: its keys and addresses by name, its nodes'
 * RPC and its bound of a wait. A devnet is one (devnetTxNetwork); the testkit's simulated
 * network is another (testkit/testnet/simTestnet.ts), so `devnet tx`, the panel, the testkit and
 * the simulation sign and send through this one function.
 */
export interface TxNetwork {
  readonly chainId: string;
  /** A key by name (keyOf's rules); a DevnetError naming the flag when there is none. */
  keyOf(from: string): Uint8Array;
  accountAddress(who: string): string;
  validatorAddress(who: string): string;
  /** The node names, in order; `node(name)` fails for a name not among them. */
  nodeNames(): readonly string[];
  node(name: string): void;
  client(name: string): Promise<RpcClient>;
  /** How long a receipt is waited for. */
  readonly receiptWaitMs: number;
  /** Seconds since the epoch on the network's clock (the transaction's timestamp). */
  nowSeconds(): number;
}

/** A devnet as a TxNetwork. */
export function devnetTxNetwork(devnet: Devnet): TxNetwork {
  return {
    chainId: devnet.spec.chainId,
    keyOf: (from) => keyOf(devnet, from),
    accountAddress: (who) => accountAddressOf(devnet, who),
    validatorAddress: (who) => validatorAddressOf(devnet, who),
    nodeNames: () => devnet.nodes.map((n) => n.name),
    node: (name) => void devnet.node(name),
    client: (name) => devnet.client(name),
    receiptWaitMs: devnet.progressBound(5),
    nowSeconds: () => Math.floor(Date.now() / 1000),
  };
}

async function answeringNode(net: TxNetwork, preferred: string | undefined): Promise<string> {
  if (preferred !== undefined) {
    net.node(preferred);
    return preferred;
  }
  for (const name of net.nodeNames()) {
    try {
      await (await net.client(name)).status();
      return name;
    } catch {
      // try the next one
    }
  }
  throw new DevnetError('NO_DEVNET', 'no node of the devnet answers: see devnet status');
}

/** `devnet tx` on a devnet. */
export function sendTx(devnet: Devnet, o: TxOptions): Promise<TxOutcome> {
  return sendTxOn(devnetTxNetwork(devnet), o);
}

export async function sendTxOn(net: TxNetwork, o: TxOptions): Promise<TxOutcome> {
  const privateKey = net.keyOf(o.from);
  let to: string | null = null;
  if (o.type === 'TRANSFER') {
    if (o.to === undefined) throw new DevnetError('BAD_FLAG', '--to is required');
    to = net.accountAddress(o.to);
  } else if (o.type === 'DELEGATE' || o.type === 'UNDELEGATE') {
    if (o.to === undefined) throw new DevnetError('BAD_FLAG', '--validator is required');
    to = net.validatorAddress(o.to);
  }
  const amount = TX_FIELDS[o.type].required.includes('amount') ? amountOf(o.amount, true) : undefined;
  const payload: { -readonly [K in keyof TxPayload]: TxPayload[K] } = {};
  if (o.name !== undefined) payload.name = o.name;
  if (o.memo !== undefined) payload.memo = o.memo;
  if (o.taskId !== undefined) payload.taskId = o.taskId;
  if (o.resultHash !== undefined) payload.resultHash = o.resultHash;
  if (o.targetVersion !== undefined) payload.targetVersion = o.targetVersion;
  if (o.upgradeHeight !== undefined) payload.upgradeHeight = o.upgradeHeight;
  if (o.rewardAddress !== undefined) payload.rewardAddress = net.accountAddress(o.rewardAddress);
  if (o.commission !== undefined) {
    const ppm = rateToPpm(Number(o.commission));
    if (ppm === null || ppm > 1_000_000 || o.commission.trim() === '')
      throw new DevnetError('BAD_FLAG', `--commission must be a rate from 0 to 1, got ${o.commission}`);
    payload.commissionPpm = ppm;
  }
  const nodeName = await answeringNode(net, o.node);
  const client: RpcClient = await net.client(nodeName);
  const tx = await buildTx(client, {
    type: o.type,
    privateKey,
    to,
    ...(amount === undefined ? {} : { amount }),
    payload,
    chainId: net.chainId,
    timestamp: net.nowSeconds(),
  });
  const submit = await client.sendTx(tx);
  const base = { tx_hash: submit.tx_hash, from: tx.from, node: nodeName, submit };
  if (submit.status === 'rejected' || !o.wait) return { ...base, receipt: null };
  const receipt = await client.waitForReceipt(submit.tx_hash, net.receiptWaitMs);
  return { ...base, receipt };
}

export function describeOutcome(o: TxOptions, r: TxOutcome): string {
  const what = o.amount === undefined ? o.type : `${o.type} ${formatCoins(parseAmount(o.amount) ?? 0n)} coin`;
  if (r.submit.status === 'rejected')
    return `${what} from ${r.from}: rejected (${r.submit.error ?? 'no reason'})`;
  if (r.receipt === null) return `${what} from ${r.from}: received by ${r.node} as ${r.tx_hash}`;
  const rc = r.receipt;
  return rc.status === 'confirmed'
    ? `${what} from ${r.from}: confirmed at height ${rc.block_height} (tx ${r.tx_hash})`
    : rc.status === 'failed'
      ? `${what} from ${r.from}: failed (${rc.error ?? 'no reason'}) (tx ${r.tx_hash})`
      : `${what} from ${r.from}: still pending (tx ${r.tx_hash})`;
}

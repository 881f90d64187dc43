/**
 * Keys and transactions as a client builds them: a fresh random key per test account (or a
 * devnet account's), signed with the node's client library, sent over the RPC. Fees are the
 * rules' fixed fees. Every transaction seen confirmed goes into the run's ledger.
 */
import { now } from '@chain-devnet/kit/wait';
import { type ChainParams, type Tx, txHash } from '@chain-devnet/node/chain';
import { buildTx, type SubmitAnswer, type TxRequest } from '@chain-devnet/node/client';
import { accountAddressOf, isValidPrivateKey, publicKeyHexOf } from '@chain-devnet/node/crypto';
import type { Chain } from './chain.js';
import { feeOf } from './model/economics.js';
import type { DevAccount, NetReads } from './net.js';
import { testRandom } from './random.js';

export const COIN = 10n ** 18n;

export class Wallet {
  readonly address: string;

  constructor(
    readonly privateKey: Uint8Array,
    readonly label: string,
  ) {
    this.address = accountAddressOf(publicKeyHexOf(privateKey));
  }

  static random(label: string): Wallet {
    for (;;) {
      const key = testRandom.bytes(32);
      if (isValidPrivateKey(key)) return new Wallet(key, label);
    }
  }

  static of(a: DevAccount): Wallet {
    return new Wallet(a.privateKey, a.name);
  }
}

/** A transaction as a test asks for it: the client's request less what the wallet and the network give. */
export type TxSpec = Omit<TxRequest, 'privateKey' | 'chainId' | 'timestamp'>;

export interface Sent {
  readonly hash: string;
  readonly tx: Tx;
  readonly node: string;
  readonly submit: SubmitAnswer;
}

/** What the wallet needs of a testnet (NetContext is one): the reads, the parameters, the funded accounts, the chain's confirmation. */
export interface WalletNet extends NetReads {
  readonly params: ChainParams;
  readonly accounts: readonly DevAccount[];
  readonly chain: Pick<Chain, 'confirmedEverywhere'>;
}

export class Txs {
  constructor(private readonly net: WalletNet) {}

  /** Signs a transaction (nonce from `node` unless given; the type's fixed fee unless given). */
  build(from: Wallet, spec: TxSpec, node: string): Promise<Tx> {
    return buildTx(this.net.rpc(node), {
      ...spec,
      privateKey: from.privateKey,
      fee: spec.fee ?? feeOf(spec.type, this.net.params),
      chainId: this.net.params.chainId,
      timestamp: Math.floor(now() / 1000),
    });
  }

  /** Sends `tx` to `node`; its hash is the wallet's own, which the node's answer must repeat. */
  async sendBuilt(tx: Tx, node: string): Promise<Sent> {
    const hash = txHash(tx, this.net.params.chainId);
    const submit = await this.net.rpc(node).sendTx(tx);
    if (submit.tx_hash !== hash)
      throw await this.net.failureNow(node, `the answer to POST /tx/send names ${hash}`, submit.tx_hash);
    return { hash, tx, node, submit };
  }

  /** Builds, sends to `node`, and fails unless the node received it. */
  async send(from: Wallet, spec: TxSpec, node: string): Promise<Sent> {
    const s = await this.sendBuilt(await this.build(from, spec, node), node);
    if (s.submit.status !== 'received')
      throw await this.net.failureNow(
        node,
        `${spec.type} from ${from.label} received`,
        `${s.submit.status}: ${s.submit.error ?? ''}`,
      );
    return s;
  }

  /** Sends and waits until it is confirmed on every node at one height; returns that height. */
  async confirm(from: Wallet, spec: TxSpec, node: string): Promise<{ sent: Sent; height: number }> {
    const sent = await this.send(from, spec, node);
    return { sent, height: await this.net.chain.confirmedEverywhere(sent.hash) };
  }

  /** Funds each wallet with `amount` from `source` (consecutive nonces in one go), confirmed everywhere. */
  async fund(source: Wallet, wallets: readonly Wallet[], amount: bigint, node: string): Promise<number> {
    const first = (await this.net.rpc(node).balance(source.address)).nonce;
    const sent: Sent[] = [];
    for (const [i, w] of wallets.entries())
      sent.push(await this.send(source, { type: 'TRANSFER', to: w.address, amount, nonce: first + i }, node));
    let height = 0;
    for (const s of sent) height = Math.max(height, await this.net.chain.confirmedEverywhere(s.hash));
    return height;
  }

  /** The developer account that pays for test accounts (account-0). */
  faucet(): Wallet {
    const a = this.net.accounts[0];
    if (a === undefined)
      throw new Error('the testnet has no funded developer account (developer_accounts: 0)');
    return Wallet.of(a);
  }
}

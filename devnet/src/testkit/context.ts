/**
 * What every wait, assertion, invariant and the load generator work with: the nodes (by name and
 * RPC), the chain's parameters and genesis, the current step's name, the bounds, and the shared
 * views of the chain (blocks read once, the validator model, the ledger of confirmed
 * transactions). A Testnet builds one from its devnet; the testkit's own tests build one from
 * fake nodes, so that the same code is tested.
 */
import { type ChainParams, type Genesis, type GenesisJson, loadGenesis } from '@chain-devnet/node/chain';
import { type HttpTransport, NODE_HTTP, RpcClient } from '@chain-devnet/node/client';
import { ACCOUNT_PREFIX, isAddress, VALIDATOR_PREFIX } from '@chain-devnet/node/crypto';
import { boundMs, type TestRuntime, type Within } from './bounds.js';
import { Chain } from './chain.js';
import { type FailureFacts, TestkitError, TestkitUsageError } from './errors.js';
import { Ledger } from './ledger.js';
import { ValidatorModel } from './model/validatorModel.js';
import type { DevAccount, NetReads } from './net.js';
import { Txs } from './wallet.js';

export interface NodeRef {
  readonly name: string;
  /** The node's RPC, e.g. http://127.0.0.1:8000. */
  readonly rpc: string;
  /** Its key's account (coin1…) and consensus (coinvalcons1…) addresses. */
  readonly address: string;
  readonly validatorAddress: string;
}

export interface ContextParts {
  /** The nodes now: one added later is in the list from then on. */
  nodes(): readonly NodeRef[];
  readonly genesis: GenesisJson;
  /** The funded developer accounts (account-0 … and the manifest's), with their keys. */
  readonly accounts: readonly DevAccount[];
  readonly runtime: TestRuntime;
  /** A node's whole log so far, one line per entry (the runtime's logs). */
  logLines(name: string): Promise<string[]>;
  /** How the nodes' RPC is reached (default node:http; the simulation's in this process). */
  readonly transport?: HttpTransport;
}

export class NetContext implements NetReads {
  /** The name failures carry: set by the caller or a scenario runner (Testnet.step). */
  step = 'setup';
  readonly params: ChainParams;
  readonly genesis: Genesis;
  readonly chain: Chain;
  readonly model: ValidatorModel;
  readonly ledger = new Ledger();
  readonly txs: Txs;
  private readonly clients = new Map<string, RpcClient>();

  constructor(private readonly parts: ContextParts) {
    const loaded = loadGenesis(parts.genesis);
    if (!loaded.ok) throw new TestkitUsageError(`the genesis is refused: ${loaded.problems.join('; ')}`);
    this.genesis = loaded.genesis;
    this.params = loaded.genesis.state.params;
    this.chain = new Chain(this);
    this.model = new ValidatorModel(this);
    this.txs = new Txs(this);
  }

  get runtime(): TestRuntime {
    return this.parts.runtime;
  }

  get accounts(): readonly DevAccount[] {
    return this.parts.accounts;
  }

  names(): string[] {
    return this.parts.nodes().map((n) => n.name);
  }

  private get transport(): HttpTransport {
    return this.parts.transport ?? NODE_HTTP;
  }

  /** The one RPC client of a node (5 s per request). */
  rpc(name: string): RpcClient {
    const ref = this.parts.nodes().find((n) => n.name === name);
    if (ref === undefined)
      throw new TestkitUsageError(`no node ${name} in the testnet (nodes: ${this.names().join(', ')})`);
    let c = this.clients.get(name);
    if (c === undefined || c.baseUrl !== ref.rpc) {
      c = new RpcClient(ref.rpc, 5_000, {}, this.transport);
      this.clients.set(name, c);
    }
    return c;
  }

  /** An account by devnet account name, node name (its key's account) or coin1 address. */
  accountAddress(who: string): string {
    const known =
      this.parts.accounts.find((a) => a.name === who)?.address ??
      this.parts.nodes().find((n) => n.name === who)?.address;
    if (known !== undefined) return known;
    if (isAddress(who, ACCOUNT_PREFIX)) return who;
    throw new TestkitUsageError(
      `${who} is not an account (${this.parts.accounts.map((a) => a.name).join(', ')}), a node name, or a coin1… address`,
    );
  }

  /** A validator by node name or coinvalcons1 address. */
  validatorAddress(who: string): string {
    const known = this.parts.nodes().find((n) => n.name === who)?.validatorAddress;
    if (known !== undefined) return known;
    if (isAddress(who, VALIDATOR_PREFIX)) return who;
    throw new TestkitUsageError(`${who} is not a node name or a coinvalcons1… address`);
  }

  bound(w: Within): number {
    return boundMs(w, {
      blockTimeMs: this.params.blockTimeMs,
      nodes: this.parts.nodes().length,
      runtime: this.parts.runtime,
    });
  }

  /** The bound of "within `blocks` blocks", in ms. */
  within(blocks: number): number {
    return this.bound({ blocks });
  }

  logLines(name: string): Promise<string[]> {
    this.rpc(name); // an unknown name fails here, as everywhere
    return this.parts.logLines(name);
  }

  /** The node's height now, or null when it does not answer (for a failure's message). */
  async heightOf(name: string): Promise<number | null> {
    try {
      return (await new RpcClient(this.rpc(name).baseUrl, 2_000, {}, this.transport).status()).height;
    } catch {
      return null;
    }
  }

  /** A failure of the current step, at a height already known. */
  failure(f: FailureFacts, cause?: unknown): TestkitError {
    return new TestkitError(this.step, f, cause === undefined ? undefined : { cause });
  }

  /** A failure of the current step on `node`, at the height it answers now. */
  async failureNow(node: string, expected: string, found: string, cause?: unknown): Promise<TestkitError> {
    const height = this.names().includes(node) ? await this.heightOf(node) : null;
    return this.failure({ node, height, expected, found }, cause);
  }
}

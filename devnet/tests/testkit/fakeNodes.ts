/**
 * Fake nodes for the testkit's own tests: HTTP servers on 127.0.0.1 that answer the node's RPC
 * (the endpoints the testkit reads) from a chain built here with the node's own block format and
 * signatures, each server's answers open to change (a different header at one height, a receipt
 * lost, a supply that does not add up). The testkit's code runs against them as against nodes; a
 * test breaks one thing and checks that the failure names it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type BlockHeader,
  type BlockJson,
  blockHash,
  blockToJson,
  computeRoot,
  loadGenesis,
  signHeader,
  signTx,
  type Tx,
  txFromJson,
  txHash,
  txRoot,
} from '@chain-devnet/node/chain';
import type { ReceiptAnswer, SupplyAnswer, ValidatorAnswer } from '@chain-devnet/node/client';
import { generateNetwork, type Network, privateKeyOf } from '@chain-devnet/node/testnet';
import { type ContextParts, NetContext, sortedSet } from '../../src/testkit/index.js';

/**
 * One item of GET /validators, as a healthy devnet's node serves it: `account` both receives the
 * rewards and operates the validator; an active validator has a place in the proposer order
 * (`proposerIndex`), an inactive one none.
 */
export function validatorAnswer(v: {
  readonly name: string;
  readonly address: string;
  readonly pubKey: string;
  readonly power: string;
  readonly account: string;
  readonly proposerIndex: number | null;
}): ValidatorAnswer {
  const active = v.proposerIndex !== null;
  return {
    address: v.address,
    pq_pub_key: v.pubKey,
    power: v.power,
    is_active: active,
    reward_address: v.account,
    name: v.name,
    commission_rate: 0.1,
    status: active ? 'ACTIVE' : 'INACTIVE',
    is_jailed: false,
    jail_count: 0,
    total_delegated: '0',
    uptime: 1,
    missed_slots: 0,
    produced_slots: 0,
    proposer_index: v.proposerIndex,
    operator_address: v.account,
  };
}

export interface FakeChain {
  readonly network: Network;
  readonly chainId: string;
  readonly blocks: readonly BlockJson[];
  /** The transfer in block `txHeight`. */
  readonly tx: { readonly hash: string; readonly height: number };
}

/**
 * A chain of `height` blocks by `validators` genesis validators, every block proposed in round 0
 * by the validator the schedule names and signed with its key, one transfer at `txHeight`.
 */
export interface FakeChainOptions {
  readonly validators?: number;
  readonly height?: number;
  readonly txHeight?: number;
  /** A height whose block the next validator in the order proposes (and signs) instead. */
  readonly wrongProposerAt?: number;
}

export function fakeChain(o: FakeChainOptions = {}): FakeChain {
  const network = generateNetwork({
    seed: 'testkit-fake',
    validators: o.validators ?? 3,
    developerAccounts: 2,
    basePort: 8000,
    genesisTime: 1_700_000_000,
    params: { epoch_length: 1000, block_time_ms: 100 },
  });
  const loaded = loadGenesis(network.genesis);
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const state = loaded.genesis.state;
  const chainId = state.params.chainId;
  const byAddress = new Map(network.nodes.map((n) => [n.key.validator_address, n]));
  const active = sortedSet(network.nodes.map((n) => n.key.validator_address));
  const txHeight = o.txHeight ?? 4;
  const payer = network.accounts[0]!;
  const tx: Tx = signTx(
    {
      type: 'TRANSFER',
      from: payer.key.address,
      to: network.accounts[1]!.key.address,
      amount: 5n,
      fee: 21_000n * 1000n,
      nonce: 0,
      gasPrice: 0,
      gasLimit: 0,
      timestamp: 1_700_000_000,
      payload: {},
    },
    privateKeyOf(payer.key),
    chainId,
  );
  const blocks: BlockJson[] = [];
  let prev = loaded.genesis.hash;
  for (let h = 1; h <= (o.height ?? 12); h++) {
    const turn = h + (h === o.wrongProposerAt ? 1 : 0);
    const proposer = byAddress.get(active[turn % active.length]!)!;
    const txs = h === txHeight ? [tx] : [];
    const header: Omit<BlockHeader, 'signature'> = {
      chainId,
      height: h,
      round: 0,
      prevHash: prev,
      timestamp: 1_700_000_000 + h,
      proposerAddress: proposer.key.validator_address,
      pubKey: proposer.key.pub_key,
      txRoot: txRoot(txs, chainId),
      computeRoot: computeRoot([]),
      stateRoot: h.toString(16).padStart(64, '0'),
      gasUsed: 0,
      gasLimit: state.params.blockGasLimit,
    };
    const signed = signHeader(header, privateKeyOf(proposer.key));
    blocks.push(blockToJson({ header: signed, txs }));
    prev = blockHash(header);
  }
  return { network, chainId, blocks, tx: { hash: txHash(tx, chainId), height: txHeight } };
}

/** A block of `chain` signed by another key than its proposer's (a forged or broken signature). */
export function resigned(b: BlockJson, by: Network['nodes'][number]): BlockJson {
  const { signature: _s, ...rest } = b.header;
  const header = signHeader(
    {
      chainId: rest.chain_id,
      height: rest.height,
      round: rest.round,
      prevHash: rest.prev_hash,
      timestamp: rest.timestamp,
      proposerAddress: rest.proposer_address,
      pubKey: rest.pub_key,
      txRoot: rest.tx_root,
      computeRoot: rest.compute_root,
      stateRoot: rest.state_root,
      gasUsed: rest.gas_used,
      gasLimit: rest.gas_limit,
    },
    privateKeyOf(by.key),
  );
  return { ...b, header: { ...b.header, signature: header.signature } };
}

/** One fake node: what it answers is its fields, changed freely by a test. */
export class FakeNode {
  blocks: BlockJson[];
  height: number;
  /** The first block it serves (a node that joined from a snapshot); below it, 404. */
  first = 1;
  balances = new Map<string, { balance: bigint; nonce: number }>();
  validators: ValidatorAnswer[];
  metrics = '';
  receipts = new Map<string, ReceiptAnswer>();
  /** null: GET /supply answers 404 (a node without the extension). */
  supply: SupplyAnswer | null;
  /** null: GET /evidence answers 404 (a node without it). */
  evidence: unknown[] | null = null;
  /**
   * What POST /tx/send answers to a well-formed transaction (its hash given); default: refused,
   * as a node that is not set up to take transactions. A test sets it (fakeNet's acceptTxs).
   */
  onTx: (tx: Tx, hash: string) => { status: 'received' | 'rejected'; error?: string } = () => ({
    status: 'rejected',
    error: 'this fake node takes no transactions',
  });
  /** Closes every connection without an answer. */
  down = false;
  log: string[] = [];
  private server: Server | null = null;
  url = '';

  constructor(
    readonly name: string,
    readonly chain: FakeChain,
  ) {
    this.blocks = [...chain.blocks];
    this.height = chain.blocks.length;
    const vs = chain.network.nodes.map((n) => n.key);
    const active = sortedSet(vs.map((k) => k.validator_address));
    this.validators = chain.network.nodes
      .map((n) =>
        validatorAnswer({
          name: n.name,
          address: n.key.validator_address,
          pubKey: n.key.pub_key,
          power: n.stake!.toString(),
          account: n.key.address,
          proposerIndex: active.indexOf(n.key.validator_address),
        }),
      )
      .sort((a, b) => (a.address < b.address ? -1 : 1));
    this.receipts.set(chain.tx.hash, {
      tx_hash: chain.tx.hash,
      status: 'confirmed',
      block_height: chain.tx.height,
      timestamp: 1_700_000_000 + chain.tx.height,
      confirmations: 1,
      error: null,
    });
    this.supply = null;
  }

  private answer(
    method: string,
    path: string,
    body: unknown,
  ): { status: number; body: string; type?: string } {
    const json = (v: unknown, status = 200) => ({ status, body: JSON.stringify(v) });
    const notFound = (detail: string) => json({ detail }, 404);
    if (method === 'POST' && path === '/tx/send') {
      const parsed = txFromJson(body);
      if (!parsed.ok) return json({ detail: 'Invalid transaction format' }, 400);
      const hash = txHash(parsed.tx, this.chain.chainId);
      const r = this.onTx(parsed.tx, hash);
      return json({ tx_hash: hash, ...r });
    }
    if (method !== 'GET') return json({ detail: 'Method not allowed' }, 405);
    if (path === '/status')
      return json({
        height: this.height,
        last_hash: this.height === 0 ? '' : blockHashOf(this.blocks[this.height - 1]!),
        network: 'devnet',
        mempool_size: 0,
        epoch: 0,
        chain_id: this.chain.chainId,
      });
    let m = /^\/block\/(\d+)$/.exec(path);
    if (m) {
      const h = Number(m[1]);
      return h >= this.first && h <= this.height && this.blocks[h - 1]
        ? json(this.blocks[h - 1])
        : notFound('Block not found');
    }
    m = /^\/balance\/(\w+)$/.exec(path);
    if (m) {
      const b = this.balances.get(m[1]!) ?? { balance: 0n, nonce: 0 };
      return json({ address: m[1], balance: b.balance.toString(), nonce: b.nonce });
    }
    if (path === '/validators') return json({ epoch: 0, validators: this.validators });
    if (path === '/metrics') return { status: 200, body: this.metrics, type: 'text/plain' };
    m = /^\/tx\/(\w+)\/receipt$/.exec(path);
    if (m) {
      const r = this.receipts.get(m[1]!);
      return r === undefined ? notFound('Transaction not found') : json(r);
    }
    if (path === '/supply') return this.supply === null ? notFound('Not found') : json(this.supply);
    if (path === '/evidence')
      return this.evidence === null ? notFound('Not found') : json({ evidence: this.evidence });
    return notFound('Not found');
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      if (this.down) {
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: unknown = null;
        try {
          body = chunks.length === 0 ? null : JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = null;
        }
        const a = this.answer(req.method ?? 'GET', req.url ?? '/', body);
        res.writeHead(a.status, { 'content-type': a.type ?? 'application/json' });
        res.end(a.body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server === null ? resolve() : this.server.close(() => resolve()),
    );
  }
}

function blockHashOf(b: BlockJson): string {
  const h = b.header;
  return blockHash({
    chainId: h.chain_id,
    height: h.height,
    round: h.round,
    prevHash: h.prev_hash,
    timestamp: h.timestamp,
    proposerAddress: h.proposer_address,
    pubKey: h.pub_key,
    txRoot: h.tx_root,
    computeRoot: h.compute_root,
    stateRoot: h.state_root,
    gasUsed: h.gas_used,
    gasLimit: h.gas_limit,
  });
}

export interface FakeNet {
  readonly chain: FakeChain;
  readonly nodes: FakeNode[];
  readonly net: NetContext;
  node(name: string): FakeNode;
  close(): Promise<void>;
}

/** `count` fake nodes of one fake chain, and the testkit's context over them. */
export async function fakeNet(o: FakeChainOptions & { nodes?: number } = {}): Promise<FakeNet> {
  const chain = fakeChain(o);
  const specs = chain.network.nodes;
  const nodes = Array.from(
    { length: o.nodes ?? specs.length },
    (_, i) => new FakeNode(specs[i]!.name, chain),
  );
  await Promise.all(nodes.map((n) => n.start()));
  const parts: ContextParts = {
    nodes: () =>
      nodes.map((n, i) => ({
        name: n.name,
        rpc: n.url,
        address: specs[i]!.key.address,
        validatorAddress: specs[i]!.key.validator_address,
      })),
    genesis: chain.network.genesis,
    accounts: chain.network.accounts.map((a) => ({
      name: a.name,
      address: a.key.address,
      privateKey: privateKeyOf(a.key),
    })),
    runtime: 'process',
    logLines: async (name) => [...nodes.find((n) => n.name === name)!.log],
  };
  return {
    chain,
    nodes,
    net: new NetContext(parts),
    node: (name) => nodes.find((n) => n.name === name)!,
    close: async () => {
      await Promise.all(nodes.map((n) => n.close()));
    },
  };
}

export interface IncludeOptions {
  /** The error of the k-th transaction received (from 0) when it is to fail, else null. */
  readonly fail?: (tx: Tx, k: number) => string | null;
  /**
   * Whether the k-th transaction received (from 0), at `node`, is lost: answered "received" and
   * never passed on (its node crashed before it did, or dropped it).
   */
  readonly lose?: (tx: Tx, k: number, node: string) => boolean;
  /**
   * Whether the k-th transaction received, at `node`, stays in that node's pool and is never
   * passed on (the node crashes before it gossips): unlike a lost one, the node then takes the
   * sender's next nonces after it.
   */
  readonly unsent?: (tx: Tx, k: number, node: string) => boolean;
  /** From a transaction's arrival to the block that decides it, ms; default 50. */
  readonly blockMs?: number;
  /**
   * A transaction that failed is included again, and confirms, when another one arrives for its
   * nonce (still unused): a copy of it, sent to another node before its failure was seen, got
   * there first once its rules passed. The one that arrived is then refused for its nonce.
   */
  readonly replayFailed?: boolean;
}

export interface Inclusion {
  /** The most transactions of one sender ever waiting in the mempool at once. */
  mostWaiting(): number;
}

/**
 * Every node takes transactions as the chain does, with one mempool they all share (gossip
 * without delay): a sender's nonces are taken in a run from its account's nonce, so one after a
 * gap is refused; once a transaction has waited `blockMs`, each sender's run from its nonce of
 * transactions that have waited as long is decided on every node at the node's height (one that
 * arrived later waits for its own `blockMs`: no latency is below it), confirmed (the nonce moves
 * on) or failed as `fail` says (the nonce stays unused, as on the chain: what waits behind it
 * waits on). The same transaction received again (sent to another node) is not decided twice.
 */
export function includeTxs(f: FakeNet, o: IncludeOptions = {}): Inclusion {
  const known = new Set<string>();
  /** Per node, the `from:nonce` of the transactions `unsent` keeps there. */
  const unsentAt = new Map<string, Set<string>>();
  /** Failed transactions by `from:nonce`, for replayFailed. */
  const failed = new Map<string, { tx: Tx; hash: string }>();
  const waiting = new Map<string, Map<number, { tx: Tx; hash: string; error: string | null; at: number }>>();
  const blockMs = o.blockMs ?? 50;
  let k = 0;
  let most = 0;
  const nonceOf = (from: string) => f.nodes[0]!.balances.get(from)?.nonce ?? 0;
  const decide = (tx: Tx, hash: string, error: string | null) => {
    for (const node of f.nodes) {
      node.receipts.set(hash, {
        tx_hash: hash,
        status: error === null ? 'confirmed' : 'failed',
        block_height: node.height,
        timestamp: 1_700_000_000 + node.height,
        confirmations: 1,
        error,
      });
      const b = node.balances.get(tx.from) ?? { balance: 0n, nonce: 0 };
      if (error === null) node.balances.set(tx.from, { balance: b.balance, nonce: b.nonce + 1 });
    }
    if (error !== null) failed.set(`${tx.from}:${tx.nonce}`, { tx, hash });
  };
  const block = () => {
    const now = performance.now();
    for (const queue of waiting.values())
      for (let n = nonceOf([...queue.values()][0]?.tx.from ?? ''); queue.has(n); n++) {
        const w = queue.get(n)!;
        // Not waited its blockMs yet (a timer may fire a fraction of a millisecond early by this clock).
        if (now - w.at < blockMs) {
          setTimeout(block, Math.max(1, Math.ceil(blockMs - (now - w.at))));
          break;
        }
        queue.delete(n);
        decide(w.tx, w.hash, w.error);
        if (w.error !== null) break;
      }
  };
  for (const node of f.nodes)
    node.onTx = (tx, hash) => {
      if (known.has(hash)) return { status: 'received' };
      const replayed = o.replayFailed ? failed.get(`${tx.from}:${tx.nonce}`) : undefined;
      if (replayed !== undefined && tx.nonce === nonceOf(tx.from)) {
        failed.delete(`${tx.from}:${tx.nonce}`);
        decide(replayed.tx, replayed.hash, null);
        // What waited behind its nonce is decided in the next block.
        setTimeout(block, blockMs);
      }
      const queue = waiting.get(tx.from) ?? new Map();
      const unsentHere = unsentAt.get(node.name) ?? new Set<string>();
      let next = nonceOf(tx.from);
      while (queue.has(next) || unsentHere.has(`${tx.from}:${next}`)) next++;
      if (tx.nonce !== next) return { status: 'rejected', error: `nonce ${tx.nonce}, expected ${next}` };
      const i = k++;
      if (o.lose?.(tx, i, node.name)) return { status: 'received' };
      if (o.unsent?.(tx, i, node.name)) {
        unsentAt.set(node.name, unsentHere.add(`${tx.from}:${tx.nonce}`));
        return { status: 'received' };
      }
      known.add(hash);
      queue.set(tx.nonce, { tx, hash, error: o.fail?.(tx, i) ?? null, at: performance.now() });
      waiting.set(tx.from, queue);
      most = Math.max(most, queue.size);
      setTimeout(block, blockMs);
      return { status: 'received' };
    };
  return { mostWaiting: () => most };
}

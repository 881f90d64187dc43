/**
 * Shared test fixtures: deterministic keys, genesis documents and a harness that produces
 * real signed blocks through buildBlock and checks them with applyBlock, as a validator would.
 */
import {
  applyBlock,
  type Block,
  type BlockResult,
  buildBlock,
  type ChainState,
  coins,
  type Genesis,
  type GenesisJson,
  loadGenesis,
  type MigrationRegistry,
  minFee,
  scheduledProposer,
  signTx,
  type Tx,
  type TxPayload,
  type TxType,
} from '../src/chain/index.js';
import {
  ACCOUNT_PREFIX,
  accountAddressOf,
  encodeAddress,
  validatorAddressOf,
} from '../src/crypto/address.js';
import { sha256, utf8Bytes } from '../src/crypto/hash.js';
import { bytesToHex } from '../src/crypto/hex.js';
import { privateKeyFromSeed, publicKeyHexOf } from '../src/crypto/keys.js';

export interface TestKey {
  readonly label: string;
  readonly privateKey: Uint8Array;
  readonly pubKey: string;
  /** coin1… */
  readonly account: string;
  /** coinvalcons1… */
  readonly validator: string;
}

const SEED = utf8Bytes('chain-devnet-toolkit test seed');
const keyCache = new Map<string, TestKey>();

/** The same label always gives the same key. */
export function key(label: string): TestKey {
  let k = keyCache.get(label);
  if (k === undefined) {
    const privateKey = privateKeyFromSeed(SEED, label);
    const pubKey = publicKeyHexOf(privateKey);
    k = {
      label,
      privateKey,
      pubKey,
      account: accountAddressOf(pubKey),
      validator: validatorAddressOf(pubKey),
    };
    keyCache.set(label, k);
  }
  return k;
}

export const GENESIS_TIME = 1_700_000_000;

export interface GenesisOptions {
  /** Labels of genesis validators, each with `stake` coins (default 1000). */
  readonly validators?: readonly string[];
  readonly stake?: bigint;
  /** Funded accounts: label -> wei. */
  readonly accounts?: Readonly<Record<string, bigint>>;
  readonly params?: Record<string, unknown>;
  readonly upgrades?: GenesisJson['upgrades'];
  readonly commissionRate?: number;
  /** The genesis protocol_version (default: none, which means 1.0.0). */
  readonly protocolVersion?: string;
  /** Default GENESIS_TIME; another time with the same keys makes a sister chain (another genesis hash). */
  readonly genesisTime?: number;
  /** This many more funded accounts, at addresses derived from their index (no key: a large state, fast). */
  readonly manyAccounts?: number;
}

/** The address of funded account `i` of GenesisOptions.manyAccounts. */
export const manyAccountsAddress = (i: number): string =>
  encodeAddress(ACCOUNT_PREFIX, sha256(utf8Bytes(`many-accounts-${i}`)).subarray(0, 20));

export function genesisJson(o: GenesisOptions = {}): GenesisJson {
  const validators = o.validators ?? ['val-0'];
  const json: GenesisJson = {
    network: 'devnet',
    genesis_time: o.genesisTime ?? GENESIS_TIME,
    params: { epoch_length: 10, activation_delay: 5, unbonding_blocks: 4, ...o.params },
    accounts: [
      ...Object.entries(o.accounts ?? { alice: coins(1_000_000) }).map(([label, wei]) => ({
        address: key(label).account,
        balance: wei.toString(),
      })),
      // Balances that differ, as a real chain's do (they compress as a real state's).
      ...Array.from({ length: o.manyAccounts ?? 0 }, (_, i) => ({
        address: manyAccountsAddress(i),
        balance: (BigInt(i + 1) * 7_919_000_000_003n).toString(),
      })),
    ],
    validators: validators.map((label) => ({
      pub_key: key(label).pubKey,
      stake: (o.stake ?? coins(1000)).toString(),
      name: label,
      ...(o.commissionRate === undefined ? {} : { commission_rate: o.commissionRate }),
    })),
  };
  if (o.upgrades) json.upgrades = o.upgrades;
  if (o.protocolVersion !== undefined) json.protocol_version = o.protocolVersion;
  return json;
}

/** The genesis of `o` loaded: its state, block 0 and hash. */
export function genesisOf(o: GenesisOptions = {}): Genesis {
  const loaded = loadGenesis(genesisJson(o));
  if (!loaded.ok) throw new Error(`bad test genesis: ${loaded.problems.join('; ')}`);
  return loaded.genesis;
}

export function genesisState(o: GenesisOptions = {}): ChainState {
  return genesisOf(o).state;
}

export type TxFields = Partial<Omit<Tx, 'type' | 'pubKey' | 'signature' | 'from'>> & { payload?: TxPayload };

/** A signed transaction from `from`, with the minimum fee and the account's next nonce unless given. */
export function tx(state: ChainState, from: string, type: TxType, fields: TxFields = {}): Tx {
  const k = key(from);
  const nonce = fields.nonce ?? state.accounts.get(k.account)?.nonce ?? 0;
  return signTx(
    {
      type,
      from: k.account,
      to: fields.to ?? null,
      amount: fields.amount ?? 0n,
      fee: fields.fee ?? minFee(type, state.params.minGasPrice),
      nonce,
      gasPrice: fields.gasPrice ?? 0,
      gasLimit: fields.gasLimit ?? 0,
      timestamp: fields.timestamp ?? GENESIS_TIME,
      payload: fields.payload ?? {},
    },
    k.privateKey,
    state.params.chainId,
  );
}

const keysByValidator = (labels: Iterable<string>) =>
  new Map([...labels].map((l) => [key(l).validator, key(l)]));

/** Drives a chain: the scheduled proposer builds each block, and applyBlock re-checks it. */
export class TestChain {
  state: ChainState;
  readonly blocks: Block[] = [];
  readonly results: BlockResult[] = [];
  private readonly keys: Map<string, TestKey>;
  /** The chain's block 0 hash, which the rules are given (ApplyOptions.genesisHash), as a node gives it. */
  readonly genesisHash: string | undefined;

  constructor(
    genesis: ChainState | GenesisOptions = {},
    private readonly migrations: MigrationRegistry = [],
    extraKeyLabels: readonly string[] = [],
  ) {
    const isState = (g: ChainState | GenesisOptions): g is ChainState =>
      'accounts' in g && g.accounts instanceof Map;
    this.state = isState(genesis) ? genesis : genesisState(genesis);
    this.genesisHash =
      this.state.genesisHash ?? (this.state.height === 0 ? this.state.lastBlockHash : undefined);
    const labels = isState(genesis) ? [] : (genesis.validators ?? ['val-0']);
    this.keys = keysByValidator([...labels, ...extraKeyLabels]);
  }

  /** Lets the harness sign for a validator that joins later. */
  knowKey(label: string): void {
    this.keys.set(key(label).validator, key(label));
  }

  /** Produces one block with `txs` in round `round`, verified by applyBlock; returns its result. */
  produce(txs: readonly Tx[] = [], round = 0): BlockResult {
    const height = this.state.height + 1;
    const proposer = scheduledProposer(this.state, height, round);
    const k = this.keys.get(proposer.address);
    if (k === undefined) throw new Error(`no key for proposer ${proposer.address}`);
    const { block, result } = buildBlock(
      this.state,
      txs,
      { timestamp: this.state.lastTimestamp + 1, round, privateKey: k.privateKey },
      this.applyOptions(),
    );
    const checked = applyBlock(this.state, block, this.applyOptions());
    if (checked.state.lastBlockHash !== result.state.lastBlockHash)
      throw new Error('applyBlock disagrees with buildBlock');
    this.blocks.push(block);
    this.results.push(checked);
    this.state = checked.state;
    return checked;
  }

  private applyOptions() {
    return {
      migrations: this.migrations,
      ...(this.genesisHash === undefined ? {} : { genesisHash: this.genesisHash }),
    };
  }

  /** Produces empty blocks up to and including `height`. */
  produceUntil(height: number): void {
    while (this.state.height < height) this.produce();
  }

  balance(label: string): bigint {
    return this.state.accounts.get(key(label).account)?.balance ?? 0n;
  }

  validator(label: string) {
    return this.state.validators.get(key(label).validator);
  }
}

export function hex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

/** Sum of every place wei can be: balances, stakes, delegations, unbonding, treasury. */
export function heldSupply(s: ChainState): bigint {
  let sum = s.totals.treasury;
  for (const a of s.accounts.values()) sum += a.balance;
  for (const v of s.validators.values()) sum += v.stake;
  for (const inner of s.delegations.values()) for (const d of inner.values()) sum += d.amount;
  for (const u of s.unbonding) sum += u.amount;
  return sum;
}

export function expectedSupply(s: ChainState): bigint {
  return s.totals.genesisSupply + s.totals.minted - s.totals.burned;
}

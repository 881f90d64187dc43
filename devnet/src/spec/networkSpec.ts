/**
 * Manifest + flags -> NetworkSpec: every key, address, port and the genesis of a devnet, from
 * the node package's network generator (the one `chain-node testnet` uses, so both tools agree
 * for one seed), checked by the node's own genesis rules. Pure and deterministic: the same
 * options and seed give the same keys and the same genesis (the genesis time is an input, read
 * from the clock by the caller).
 */

import { parseDuration, parseSignedDuration } from '@chain-devnet/kit/values';
import { coins, type GenesisJson, loadGenesis, parseAmount, rateToPpm } from '@chain-devnet/node/chain';
import { hexToBytes } from '@chain-devnet/node/crypto';
import {
  type ByzantineMode,
  generateNetwork,
  type NetworkAccount,
  type NetworkNode,
} from '@chain-devnet/node/testnet';
import { DevnetError } from '../base/errors.js';
import {
  diskBytesOf,
  type Manifest,
  type ManifestDisk,
  type ManifestValidator,
  type RuntimeChoice,
} from './manifest.js';
import { type MonitoringPorts, marketPort, monitoringPorts, uiPort } from './ports.js';
import { genesisProtocolVersion } from './protocolVersion.js';

export const DEFAULTS = {
  validators: 4,
  seed: 'devnet',
  basePort: 8000,
  blockTimeMs: 1000,
  developerAccounts: 3,
  runtime: 'auto' as RuntimeChoice,
  monitoring: true,
  market: false,
  ui: true,
};

/**
 * The accounts a devnet with the market funds at genesis, keys from the seed and the name: the
 * market's escrow (its float pays the fees of payouts and refunds, docs/MARKET.md "Money") and
 * the sample worker's (it pays its SUBMIT_RESULT fees).
 */
export const MARKET_ACCOUNTS = { escrow: 'market', worker: 'market-worker' } as const;

/**
 * Whether an account's key belongs to a service of the devnet (the market's escrow, its sample
 * worker) rather than to the developer. Such an account is listed by its address, never offered
 * as a sender (`devnet tx --from`, the panel's transfer form) and its key never printed: a
 * transfer from the escrow takes the nonce the market gave its next payout (docs/MARKET.md).
 */
export const isServiceAccount = (name: string): boolean =>
  (Object.values(MARKET_ACCOUNTS) as string[]).includes(name);

/** The funded accounts a developer may send from: all but the services'. */
export const senderAccounts = (spec: Pick<NetworkSpec, 'accounts'>): readonly AccountSpec[] =>
  spec.accounts.filter((a) => !isServiceAccount(a.name));
const MARKET_ACCOUNT_BALANCE = coins(1_000_000);

/** What the command line may override; null/undefined means "not given". */
export interface SpecFlags {
  readonly validators?: number;
  readonly runtime?: RuntimeChoice;
  readonly blockTime?: string;
  readonly epochLength?: number;
  readonly basePort?: number;
  readonly seed?: string;
  readonly monitoring?: boolean;
  readonly registry?: string;
  readonly market?: boolean;
  readonly ui?: boolean;
  /** `devnet up --auto-upgrade`: the manifest's auto_upgrade. */
  readonly autoUpgrade?: boolean;
}

/** A manifest disk in bytes (checked with the manifest), or null: none. */
function diskOf(disk: ManifestDisk | undefined): number | null {
  return disk === undefined ? null : diskBytesOf(disk);
}

/** A genesis validator's spec: the generator's node, and how the manifest says it runs. */
function nodeSpecOf(n: NetworkNode, v: ManifestValidator | undefined, m: Manifest): NodeSpec {
  return {
    ...n,
    byzantine: v?.byzantine ?? null,
    stateSync: v?.state_sync ?? false,
    ...(m.record_consensus === true ? { recordConsensus: true } : {}),
    diskBytes: diskOf(v?.disk ?? m.disk),
    ...(v?.clock_skew === undefined ? {} : { clockSkewMs: parseSignedDuration(v.clock_skew) ?? 0 }),
  };
}

/** A node of the devnet: the generator's node (name, index, key, stake, ports), and how it runs. */
export interface NodeSpec extends NetworkNode {
  /** TEST ONLY: started as a Byzantine validator (`--byzantine MODE`); null is honest. */
  readonly byzantine: ByzantineMode | null;
  /** Joins by state sync when its store is empty (`chain-node start --state-sync`). */
  readonly stateSync: boolean;
  /** Records its consensus core (`chain-node start --record-consensus`; manifest `record_consensus`). */
  readonly recordConsensus?: boolean;
  /** Its store on a size-limited tmpfs of this many bytes (manifest `disk`, runtime/dataDisk.ts); null: on the disk beneath. */
  readonly diskBytes: number | null;
  /** TEST ONLY: its own clock this many ms ahead (negative: behind) at its first start (manifest `clock_skew`); absent: 0. */
  readonly clockSkewMs?: number;
}

export type AccountSpec = NetworkAccount;

export interface NetworkSpec {
  readonly seed: string;
  readonly chainId: string;
  readonly runtime: RuntimeChoice;
  readonly basePort: number;
  readonly blockTimeMs: number;
  readonly monitoring: boolean;
  readonly monitoringPorts: MonitoringPorts;
  /** The task market's port (P+1093), or null without the market. */
  readonly marketPort: number | null;
  /** Whether `devnet up` starts the panel (devnet/src/ui), and its port (P+1092). */
  readonly ui: boolean;
  readonly uiPort: number;
  readonly nodes: readonly NodeSpec[];
  /** The manifest's top-level `disk` in bytes, for the nodes added later; null: none. */
  readonly diskBytes: number | null;
  readonly accounts: readonly AccountSpec[];
  readonly genesis: GenesisJson;
}

/** Every input of a spec: the manifest with flags applied, and the genesis time. Kept in the devnet's state file. */
export interface SpecInput {
  readonly manifest: Manifest;
  readonly genesisTime: number;
}

/** Applies flags over the manifest (flags win). A validator count from a flag grows or cuts a listed set. */
export function mergeFlags(manifest: Manifest, flags: SpecFlags): Manifest {
  const m: Manifest = { ...manifest };
  if (flags.validators !== undefined) {
    if (Array.isArray(m.validators)) {
      const list = m.validators.slice(0, flags.validators);
      while (list.length < flags.validators) list.push({});
      m.validators = list;
    } else m.validators = flags.validators;
  }
  if (flags.runtime !== undefined) m.runtime = flags.runtime;
  if (flags.blockTime !== undefined) m.block_time = flags.blockTime;
  if (flags.epochLength !== undefined) m.epoch_length = flags.epochLength;
  if (flags.basePort !== undefined) m.base_port = flags.basePort;
  if (flags.seed !== undefined) m.seed = flags.seed;
  if (flags.monitoring !== undefined) m.monitoring = flags.monitoring;
  if (flags.registry !== undefined) m.registry = flags.registry;
  if (flags.market !== undefined) m.market = flags.market;
  if (flags.ui !== undefined) m.ui = flags.ui;
  if (flags.autoUpgrade !== undefined) m.auto_upgrade = flags.autoUpgrade;
  return m;
}

/**
 * The `chain-node start` flags every runtime gives a node besides where it lives: fault
 * injection always (the devnet's disconnect, connect and partitions use the node's blocked-peers
 * file), the test-only Byzantine mode where the manifest asks for it, state sync where the
 * manifest or `devnet add --state-sync` asks for it, and the consensus record where the manifest
 * does (`record_consensus`: a build older than the record refuses the flag).
 */
export function nodeStartFlags(n: NodeSpec): string[] {
  return [
    '--fault-injection',
    ...(n.byzantine === null ? [] : ['--byzantine', n.byzantine]),
    ...(n.stateSync ? ['--state-sync'] : []),
    ...(n.recordConsensus === true ? ['--record-consensus'] : []),
  ];
}

export function buildNetworkSpec(input: SpecInput): NetworkSpec {
  const m = input.manifest;
  const seed = m.seed ?? DEFAULTS.seed;
  const basePort = m.base_port ?? DEFAULTS.basePort;
  const blockTimeMs = m.block_time === undefined ? DEFAULTS.blockTimeMs : parseDuration(m.block_time);
  if (blockTimeMs === null || blockTimeMs <= 0)
    throw new DevnetError('BAD_FLAG', `block time must be a duration like 300ms or 2s, got ${m.block_time}`);
  const market = m.market ?? DEFAULTS.market;
  const listed: ManifestValidator[] = Array.isArray(m.validators)
    ? m.validators
    : Array.from({ length: m.validators ?? DEFAULTS.validators }, () => ({}));
  const params: Record<string, unknown> = { ...m.params, block_time_ms: blockTimeMs };
  if (m.epoch_length !== undefined) params.epoch_length = m.epoch_length;
  const { nodes, accounts, genesis } = generateNetwork({
    seed,
    validators: listed.map((v) => ({
      ...(v.name === undefined ? {} : { name: v.name }),
      ...(v.stake === undefined ? {} : { stake: parseAmount(v.stake)! }),
      ...(v.commission_rate === undefined ? {} : { commissionRate: v.commission_rate }),
    })),
    developerAccounts: m.developer_accounts ?? DEFAULTS.developerAccounts,
    extraAccounts: [
      ...(m.accounts ?? []).map((a) => ({
        name: a.name,
        balance: parseAmount(a.balance)!,
        ...(a.private_key === undefined ? {} : { privateKey: hexToBytes(a.private_key, 32) }),
      })),
      ...(market
        ? Object.values(MARKET_ACCOUNTS).map((name) => ({ name, balance: MARKET_ACCOUNT_BALANCE }))
        : []),
    ],
    basePort,
    genesisTime: input.genesisTime,
    ...(m.chain_id === undefined ? {} : { chainId: m.chain_id }),
    params,
    protocolVersion: genesisProtocolVersion(m),
  });
  const names = new Set<string>();
  for (const n of nodes) {
    if (names.has(n.name))
      throw new DevnetError('BAD_MANIFEST', `validators: the name ${n.name} is used twice`);
    names.add(n.name);
  }
  for (const a of accounts) {
    if (names.has(a.name))
      throw new DevnetError('BAD_MANIFEST', `accounts: the name ${a.name} is used twice`);
    names.add(a.name);
  }
  const listedValidators = Array.isArray(m.validators) ? m.validators : [];
  const checked = loadGenesis(genesis);
  if (!checked.ok)
    throw new DevnetError(
      'BAD_MANIFEST',
      `the genesis made from this manifest is refused:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  // rateToPpm is the node's own check of a commission rate (at most six decimals).
  listedValidators.forEach((v, i) => {
    if (v.commission_rate !== undefined && rateToPpm(v.commission_rate) === null)
      throw new DevnetError('BAD_MANIFEST', `validators[${i}].commission_rate has more than six decimals`);
  });
  return {
    seed,
    chainId: checked.genesis.state.params.chainId,
    runtime: m.runtime ?? DEFAULTS.runtime,
    basePort,
    blockTimeMs,
    monitoring: m.monitoring ?? DEFAULTS.monitoring,
    monitoringPorts: monitoringPorts(basePort),
    marketPort: market ? marketPort(basePort) : null,
    ui: m.ui ?? DEFAULTS.ui,
    uiPort: uiPort(basePort),
    nodes: nodes.map((n, i) => nodeSpecOf(n, listed[i], m)),
    diskBytes: diskOf(m.disk),
    accounts,
    genesis,
  };
}

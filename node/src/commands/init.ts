/**
 * `chain-node init`: writes a genesis with one validator and funded developer accounts, and
 * their keys, into a home folder, so that a one-node chain starts with a second command: a
 * network of one from the network generator (testnet/network.ts). Keys come from the seed when
 * one is given (reproducible, the same as chain-node testnet's and the devnet's for that seed),
 * else from a random seed.
 */
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NETWORK_PARAMS, type NetworkId } from '../chain/index.js';
import { bytesToHex } from '../crypto/hex.js';
import type { KeyFile } from '../home/keyFile.js';
import { writeNodeHome } from '../testnet/homes.js';
import { generateNetwork, privateKeyOf } from '../testnet/network.js';

export interface InitOptions {
  readonly home: string;
  readonly network: NetworkId;
  readonly chainId: string | null;
  readonly blockTimeMs: number | null;
  readonly epochLength: number | null;
  readonly accounts: number;
  readonly seed: string | null;
  readonly force: boolean;
  readonly genesisTime: number;
  /** The genesis protocol_version; null: the newest this build runs (testnet/network.ts). */
  readonly protocolVersion: string | null;
}

export interface InitResult {
  readonly genesisPath: string;
  readonly keyPath: string;
  readonly validator: KeyFile;
  readonly accounts: readonly (KeyFile & { balance: string })[];
}

export async function initHome(o: InitOptions): Promise<InitResult> {
  const genesisPath = join(o.home, 'genesis.json');
  const keyPath = join(o.home, 'validator_key.json');
  if (!o.force && (await stat(genesisPath).catch(() => null)) !== null) {
    throw new Error(`${genesisPath} already exists: pass --force to overwrite, or start the node with it`);
  }
  const params: Record<string, unknown> = {};
  if (o.blockTimeMs !== null) params.block_time_ms = o.blockTimeMs;
  if (o.epochLength !== null) params.epoch_length = o.epochLength;
  // Without a seed, a random one: the keys are then as random as the system's randomness.
  const net = generateNetwork({
    seed: o.seed ?? bytesToHex(randomBytes(32)),
    network: o.network,
    chainId: o.chainId ?? NETWORK_PARAMS[o.network].chainId,
    validators: 1,
    developerAccounts: o.accounts,
    basePort: 0,
    genesisTime: o.genesisTime,
    params,
    ...(o.protocolVersion === null ? {} : { protocolVersion: o.protocolVersion }),
  });
  const validator = net.nodes[0]!.key;
  const accounts = net.accounts.map((a) => ({ ...a.key, balance: a.balance.toString() }));
  await writeNodeHome(o.home, { genesis: net.genesis, validatorKey: privateKeyOf(validator), accounts });
  return { genesisPath, keyPath, validator, accounts };
}

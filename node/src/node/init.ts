/**
 * `chain-node init`: writes a genesis with one validator and funded developer accounts, and
 * their keys, into a home folder, so that a one-node chain starts with a second command.
 * Keys come from the seed when one is given (reproducible), else from the system's randomness.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { coins, type GenesisJson, NETWORK_PARAMS, type NetworkId } from '../chain/index.js';
import { isValidPrivateKey, privateKeyFromSeed } from '../crypto/keys.js';
import { type KeyFile, keyFileOf, writeKeyFile } from './keyFile.js';

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
}

export interface InitResult {
  readonly genesisPath: string;
  readonly keyPath: string;
  readonly validator: KeyFile;
  readonly accounts: readonly (KeyFile & { balance: string })[];
}

function keyFor(seed: string | null, label: string): Uint8Array {
  if (seed !== null) return privateKeyFromSeed(new TextEncoder().encode(seed), label);
  for (;;) {
    const k = new Uint8Array(randomBytes(32));
    if (isValidPrivateKey(k)) return k;
  }
}

export async function initHome(o: InitOptions): Promise<InitResult> {
  const genesisPath = join(o.home, 'genesis.json');
  const keyPath = join(o.home, 'validator_key.json');
  if (!o.force && (await stat(genesisPath).catch(() => null)) !== null) {
    throw new Error(`${genesisPath} already exists: pass --force to overwrite, or start the node with it`);
  }
  await mkdir(o.home, { recursive: true });
  const base = NETWORK_PARAMS[o.network];
  const validatorKey = keyFor(o.seed, 'validator-0');
  const validator = await writeKeyFile(keyPath, validatorKey);
  const accounts = Array.from({ length: o.accounts }, (_, i) => ({
    ...keyFileOf(keyFor(o.seed, `account-${i}`)),
    balance: coins(1_000_000).toString(),
  }));
  const params: Record<string, unknown> = {};
  if (o.blockTimeMs !== null) params.block_time_ms = o.blockTimeMs;
  if (o.epochLength !== null) params.epoch_length = o.epochLength;
  const genesis: GenesisJson = {
    network: o.network,
    chain_id: o.chainId ?? base.chainId,
    genesis_time: o.genesisTime,
    params,
    accounts: accounts.map((a) => ({ address: a.address, balance: a.balance })),
    validators: [
      { pub_key: validator.pub_key, stake: (base.minStake * 10n).toString(), name: 'validator-0' },
    ],
  };
  await writeFile(genesisPath, `${JSON.stringify(genesis, null, 2)}\n`);
  await writeFile(join(o.home, 'accounts.json'), `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
  return { genesisPath, keyPath, validator, accounts };
}

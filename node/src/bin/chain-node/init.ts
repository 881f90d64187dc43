/** `chain-node init`: a one-validator genesis, its keys and funded developer accounts in --home. */
import { join } from 'node:path';
import { choice, defineCommand, duration, flag, text } from '@chain-devnet/kit/cli';
import { NETWORK_IDS } from '../../chain/index.js';
import { initHome } from '../../commands/init.js';
import { genesisOptions, homeOf, homeOption } from './options.js';

/** Prints the funded developer accounts of a new home, and how to send from one. */
export function printAccounts(
  accounts: readonly { address: string; private_key: string }[],
  home: string,
): void {
  process.stdout.write(
    `Funded developer accounts (1,000,000 coins each; keys also in ${join(home, 'accounts.json')}):\n` +
      accounts.map((a, i) => `  (${i}) ${a.address}  private key ${a.private_key}\n`).join('') +
      `Send a transfer: chain-node tx send --home ${home} --from 0 --to <coin1 address> --amount 1.5coin\n`,
  );
}

export const initCommand = defineCommand({
  name: 'init',
  summary: 'write a one-validator genesis and keys into --home',
  options: {
    home: homeOption,
    network: choice('the network', NETWORK_IDS, { valueName: 'NAME', default: 'devnet' }),
    'chain-id': text("chain id (default: the network's, e.g. chain-devnet-1)", { valueName: 'ID' }),
    'block-time': duration('block time written into the genesis', {}),
    ...genesisOptions,
    seed: text('derive every key from S (reproducible); default: random keys', { valueName: 'S' }),
    force: flag('overwrite an existing genesis'),
  },
  run: async ({ values: v }) => {
    const home = homeOf(v.home);
    const result = await initHome({
      home,
      network: v.network,
      chainId: v['chain-id'] ?? null,
      blockTimeMs: v['block-time'] ?? null,
      epochLength: v['epoch-length'] ?? null,
      accounts: v.accounts,
      seed: v.seed ?? null,
      force: v.force,
      genesisTime: Math.floor(Date.now() / 1000),
      protocolVersion: v['protocol-version'] ?? null,
    });
    process.stdout.write(
      `Wrote ${result.genesisPath}\nValidator key ${result.keyPath} (${result.validator.validator_address})\n`,
    );
    printAccounts(result.accounts, home);
    process.stdout.write(`Start it with: chain-node start --home ${home}\n`);
    return 0;
  },
});

/** `chain-node testnet`: the homes of an N-validator network in --output (start each validator-i). */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineCommand, duration, flag, integer, text } from '@chain-devnet/kit/cli';
import { writeTestnet } from '../../commands/testnet.js';
import { genesisOptions } from './options.js';

export const testnetCommand = defineCommand({
  name: 'testnet',
  summary: 'write the homes of an N-validator network (start each validator-i)',
  options: {
    validators: integer('number of validators', { min: 1, max: 200, default: 4 }),
    output: text('folder for the homes validator-0 … validator-(N-1)', { valueName: 'DIR', required: true }),
    'base-port': integer('node i: RPC port P+i, p2p port P+1000+i', {
      valueName: 'P',
      min: 1,
      max: 64_000,
      default: 8000,
    }),
    seed: text('every key from S', { valueName: 'S', default: 'testnet' }),
    'block-time': duration('block time written into the genesis', {}),
    ...genesisOptions,
    containers: flag(
      'one container per node (docker-compose): RPC 8000 and p2p 9000 on 0.0.0.0 everywhere, peers ' +
        'found by name (/dns4/validator-j/tcp/9000)',
    ),
    'if-absent': flag('do nothing when --output already holds a testnet (a restarted compose)'),
  },
  run: async ({ values: v }) => {
    const output = resolve(v.output);
    if (v['if-absent'] && existsSync(join(output, 'validator-0', 'genesis.json'))) {
      process.stdout.write(`${output} already holds a testnet: kept as it is\n`);
      return 0;
    }
    const { nodes } = await writeTestnet({
      output,
      containers: v.containers,
      validators: v.validators,
      seed: v.seed,
      basePort: v['base-port'],
      host: '127.0.0.1',
      blockTimeMs: v['block-time'] ?? null,
      epochLength: v['epoch-length'] ?? null,
      accounts: v.accounts,
      genesisTime: Math.floor(Date.now() / 1000),
      ...(v['protocol-version'] === undefined ? {} : { protocolVersion: v['protocol-version'] }),
    });
    for (const n of nodes)
      process.stdout.write(
        `${n.name}: rpc http://127.0.0.1:${n.rpcPort}  p2p ${n.multiaddr}\n  chain-node start --home ${n.home}\n`,
      );
    return 0;
  },
});

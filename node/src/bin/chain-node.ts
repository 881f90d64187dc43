#!/usr/bin/env node
/**
 * chain-node: run a node (`start`, the default) or prepare a one-node chain (`init`).
 *   chain-node init  --home DIR [--network devnet] [--block-time 1s] [--epoch-length N] [--accounts N] [--seed S]
 *   chain-node start --home DIR [--port 8000] [--p2p-port 9000] [--genesis FILE] [--key FILE] [--block-time D]
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NETWORK_IDS, type NetworkId } from '../chain/index.js';
import { initHome } from '../commands/init.js';
import { writeTestnet } from '../commands/testnet.js';
import { sendTransfer } from '../commands/txCommand.js';
import { BYZANTINE_MODES } from '../faults/equivocator.js';
import { FAIL_POINTS } from '../faults/failPoints.js';
import { readNodeFile } from '../home/nodeFile.js';
import { defaultConfig, type NodeConfig } from '../main/config.js';
import { StartupError, startNode } from '../main/node.js';
import { StoreError } from '../store/errors.js';
import { parseDuration } from '../util/duration.js';
import { createLogger, type LogFormat } from '../util/logger.js';

const HELP = `chain-node — a proof-of-authority chain node

Usage:
  chain-node init  [options]   write a one-validator genesis and keys into --home
  chain-node start [options]   run the node (the default command)
  chain-node dev   [options]   a local one-node chain: init --home if it has no genesis
                               (seed "dev", 1 s blocks), then start with readable logs
  chain-node testnet --validators N --output DIR [--base-port 8000] [--seed S] [--block-time D]
                               write the homes of an N-validator network (start each node-i)
  chain-node tx send --from N --to ADDRESS --amount 1.5coin [--rpc URL] [--home DIR]
                               sign a transfer with a key of --home and wait for its receipt
  chain-node help              this text

Common options:
  --home DIR            data folder (default ./.chain-node)

start options:
  --port N              RPC port (default 8000)
  --host ADDR           RPC listen address (default 127.0.0.1; 0.0.0.0 in containers)
  --p2p-port N          peer-to-peer port (default 9000)
  --p2p-host ADDR       peer-to-peer listen address (default 127.0.0.1)
  --p2p-announce LIST   comma-separated multiaddrs peers are told to dial instead of the
                        listen addresses, e.g. /dns4/validator-0/tcp/9000
  --bootstrap LIST      comma-separated multiaddrs of peers, each with /p2p/<peer id>
  --no-p2p              run without the peer-to-peer network
  --genesis FILE        genesis file (default <home>/genesis.json)
  --key FILE            validator key file (default <home>/validator_key.json if present)
  --block-time D        time between blocks, e.g. 500ms, 2s (default: the genesis block_time_ms)
  --log-format F        json (default) or pretty
  --mempool-ttl D       pending transactions expire after D (default 1h)
  --mempool-cleanup D   how often expired ones are removed (default 30s)
  --fault-injection     honour <home>/blocked_peers.json, a JSON array of peer ids the node
                        refuses to talk to (devnet disconnect/connect, partition tests);
                        without it the file is ignored
  --byzantine equivocate
                        TEST ONLY, devnet genesis only: a Byzantine validator that signs two
                        versions of every proposal and vote and sends each to half its peers
  --fail-point lock-recorded
                        TEST ONLY, with --fault-injection: the node kills itself (SIGKILL) once
                        it has recorded its first lock, before it stores the block (crash tests)

tx send options:
  --from KEY            index of a developer account in <home>/accounts.json, "validator",
                        a key file, or a private key in hex
  --to ADDRESS          coin1… recipient
  --amount A            e.g. 1.5coin, 100coins, 2500wei
  --rpc URL             node RPC (default http://127.0.0.1:8000)
  --no-wait             return once the node has accepted it

testnet options:
  --validators N        number of validators (default 4)
  --output DIR          folder for the homes validator-0 … validator-(N-1)
  --base-port P         node i: RPC port P+i, p2p port P+1000+i (default 8000)
  --seed S              every key from S (default "testnet")
  --containers          one container per node (docker-compose): RPC 8000 and p2p 9000 on
                        0.0.0.0 everywhere, peers found by name (/dns4/validator-j/tcp/9000)
  --if-absent           do nothing when --output already holds a testnet (a restarted compose)

Settings in <home>/node.json (port, p2p_port, host, p2p_host, bootstrap, block_time) are used
by start; flags override them.

init options:
  --network NAME        devnet (default), testnet or mainnet
  --chain-id ID         chain id (default: the network's, e.g. chain-devnet-1)
  --block-time D        block time written into the genesis
  --epoch-length N      blocks per epoch written into the genesis
  --accounts N          funded developer accounts (default 3, 1,000,000 coins each)
  --seed S              derive every key from S (reproducible); default: random keys
  --force               overwrite an existing genesis

Quick start:
  chain-node init --home ./.chain-node --block-time 1s && chain-node start --home ./.chain-node
`;

class UsageError extends Error {}

function printAccounts(accounts: readonly { address: string; private_key: string }[], home: string): void {
  process.stdout.write(
    `Funded developer accounts (1,000,000 coins each; keys also in ${join(home, 'accounts.json')}):\n` +
      accounts.map((a, i) => `  (${i}) ${a.address}  private key ${a.private_key}\n`).join('') +
      `Send a transfer: chain-node tx send --home ${home} --from 0 --to <coin1 address> --amount 1.5coin\n`,
  );
}

function commaList(text: string): string[] {
  return text
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

function duration(name: string, text: string | undefined): number | null {
  if (text === undefined) return null;
  const ms = parseDuration(text);
  if (ms === null || ms <= 0)
    throw new UsageError(`--${name} must be a duration such as 500ms or 2s, got ${JSON.stringify(text)}`);
  return ms;
}

function integer(name: string, text: string | undefined, min: number, max: number): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${text}`);
  return n;
}

function oneOf<T extends string>(name: string, text: string | undefined, choices: readonly T[]): T | null {
  if (text === undefined) return null;
  if (!(choices as readonly string[]).includes(text))
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(text)}`);
  return text as T;
}

async function main(argv: string[]): Promise<number> {
  const command = argv[0] && !argv[0].startsWith('-') ? argv[0] : 'start';
  const rest = command === argv[0] ? argv.slice(1) : argv;
  if (command === 'help' || rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: command === 'tx',
    options: {
      home: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'p2p-port': { type: 'string' },
      'p2p-host': { type: 'string' },
      'p2p-announce': { type: 'string' },
      bootstrap: { type: 'string' },
      'no-p2p': { type: 'boolean' },
      genesis: { type: 'string' },
      key: { type: 'string' },
      'block-time': { type: 'string' },
      'log-format': { type: 'string' },
      'mempool-ttl': { type: 'string' },
      'mempool-cleanup': { type: 'string' },
      'fault-injection': { type: 'boolean' },
      network: { type: 'string' },
      'chain-id': { type: 'string' },
      'epoch-length': { type: 'string' },
      accounts: { type: 'string' },
      seed: { type: 'string' },
      force: { type: 'boolean' },
      from: { type: 'string' },
      to: { type: 'string' },
      amount: { type: 'string' },
      rpc: { type: 'string' },
      'no-wait': { type: 'boolean' },
      validators: { type: 'string' },
      output: { type: 'string' },
      'base-port': { type: 'string' },
      containers: { type: 'boolean' },
      'if-absent': { type: 'boolean' },
      byzantine: { type: 'string' },
      'fail-point': { type: 'string' },
    },
  });
  const home = resolve(values.home ?? '.chain-node');

  if (command === 'testnet') {
    if (!values.output) throw new UsageError('testnet needs --output DIR');
    const output = resolve(values.output);
    if (values['if-absent'] && existsSync(join(output, 'validator-0', 'genesis.json'))) {
      process.stdout.write(`${output} already holds a testnet: kept as it is\n`);
      return 0;
    }
    const { nodes } = await writeTestnet({
      output,
      containers: values.containers === true,
      validators: integer('validators', values.validators, 1, 200) ?? 4,
      seed: values.seed ?? 'testnet',
      basePort: integer('base-port', values['base-port'], 1, 64000) ?? 8000,
      host: '127.0.0.1',
      blockTimeMs: duration('block-time', values['block-time']),
      epochLength: integer('epoch-length', values['epoch-length'], 1, 1_000_000),
      accounts: integer('accounts', values.accounts, 0, 1000) ?? 3,
      genesisTime: Math.floor(Date.now() / 1000),
    });
    for (const n of nodes)
      process.stdout.write(
        `${n.name}: rpc http://127.0.0.1:${n.rpcPort}  p2p ${n.multiaddr}\n  chain-node start --home ${n.home}\n`,
      );
    return 0;
  }

  if (command === 'tx') {
    if (positionals[0] !== 'send')
      throw new UsageError('usage: chain-node tx send --from N --to ADDRESS --amount A');
    if (!values.from || !values.to || !values.amount)
      throw new UsageError('tx send needs --from, --to and --amount');
    return sendTransfer(
      {
        home,
        rpc: values.rpc ?? 'http://127.0.0.1:8000',
        from: values.from,
        to: values.to,
        amount: values.amount,
        wait: !values['no-wait'],
      },
      (line) => process.stdout.write(`${line}\n`),
    );
  }

  if (command === 'dev' && !existsSync(join(home, 'genesis.json'))) {
    const result = await initHome({
      home,
      network: 'devnet',
      chainId: null,
      blockTimeMs: duration('block-time', values['block-time']) ?? 1000,
      epochLength: integer('epoch-length', values['epoch-length'], 1, 1_000_000),
      accounts: integer('accounts', values.accounts, 0, 1000) ?? 3,
      seed: values.seed ?? 'dev',
      force: false,
      genesisTime: Math.floor(Date.now() / 1000),
    });
    process.stdout.write(`Initialized ${home} (seed ${values.seed ?? 'dev'}).\n`);
    printAccounts(result.accounts, home);
  }

  if (command === 'init') {
    const network = (values.network ?? 'devnet') as NetworkId;
    if (!NETWORK_IDS.includes(network))
      throw new UsageError(`--network must be one of ${NETWORK_IDS.join(', ')}`);
    const result = await initHome({
      home,
      network,
      chainId: values['chain-id'] ?? null,
      blockTimeMs: duration('block-time', values['block-time']),
      epochLength: integer('epoch-length', values['epoch-length'], 1, 1_000_000),
      accounts: integer('accounts', values.accounts, 0, 1000) ?? 3,
      seed: values.seed ?? null,
      force: values.force ?? false,
      genesisTime: Math.floor(Date.now() / 1000),
    });
    process.stdout.write(
      `Wrote ${result.genesisPath}\nValidator key ${result.keyPath} (${result.validator.validator_address})\n`,
    );
    printAccounts(result.accounts, home);
    process.stdout.write(`Start it with: chain-node start --home ${home}\n`);
    return 0;
  }
  if (command !== 'start' && command !== 'dev')
    throw new UsageError(`unknown command ${command}: use init, start, tx or help`);

  const logFormat = (values['log-format'] ?? (command === 'dev' ? 'pretty' : 'json')) as LogFormat;
  if (logFormat !== 'json' && logFormat !== 'pretty')
    throw new UsageError('--log-format must be json or pretty');
  const base = defaultConfig(home);
  const file = (await readNodeFile(join(home, 'node.json'))) ?? {};
  const defaultKey = join(home, 'validator_key.json');
  const config: NodeConfig = {
    ...base,
    port: integer('port', values.port, 0, 65535) ?? file.port ?? base.port,
    host: values.host ?? file.host ?? base.host,
    p2pPort: integer('p2p-port', values['p2p-port'], 0, 65535) ?? file.p2p_port ?? base.p2pPort,
    p2pHost: values['p2p-host'] ?? file.p2p_host ?? base.p2pHost,
    p2pAnnounce: values['p2p-announce']
      ? commaList(values['p2p-announce'])
      : (file.p2p_announce ?? base.p2pAnnounce),
    bootstrap: values.bootstrap ? commaList(values.bootstrap) : (file.bootstrap ?? base.bootstrap),
    p2p: !values['no-p2p'],
    genesisPath: values.genesis ? resolve(values.genesis) : base.genesisPath,
    keyPath: values.key ? resolve(values.key) : existsSync(defaultKey) ? defaultKey : null,
    blockTimeMs: duration('block-time', values['block-time'] ?? file.block_time),
    logFormat,
    mempool: { ...base.mempool, ttlMs: duration('mempool-ttl', values['mempool-ttl']) ?? base.mempool.ttlMs },
    mempoolCleanupMs: duration('mempool-cleanup', values['mempool-cleanup']) ?? base.mempoolCleanupMs,
    faultInjection: values['fault-injection'] === true,
    byzantine: oneOf('byzantine', values.byzantine, BYZANTINE_MODES),
    failPoint: oneOf('fail-point', values['fail-point'], FAIL_POINTS),
  };
  const logger = createLogger({ format: logFormat });
  process.on('unhandledRejection', (e) => logger.error('unhandled rejection', { error: e as Error }));
  const node = await startNode(config, logger);
  await new Promise<void>((done) => {
    const onSignal = (signal: string) => {
      logger.info('signal received', { signal });
      node.stop().then(done, done);
    };
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`chain-node: ${(e as Error).message}\nRun chain-node --help for the options.\n`);
      process.exit(2);
    }
    if (e instanceof StartupError || e instanceof StoreError) {
      process.stderr.write(`chain-node: ${e.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`chain-node: ${(e as Error).message ?? String(e)}\n`);
    process.exit(1);
  },
);

/**
 * The options more than one chain-node command takes, declared once: the data folder, the
 * genesis settings of init, dev and testnet, and everything `start` (and `dev`) runs a node with.
 */
import { resolve } from 'node:path';
import { choice, duration, flag, integer, list, text } from '@chain-devnet/kit/cli';
import { MIGRATIONS, NEWEST_PROTOCOL_VERSION, supportedVersions } from '../../chain/index.js';
import { BYZANTINE_MODES } from '../../faults/equivocator.js';
import { FAIL_POINTS } from '../../faults/failPoints.js';
import { defaultConfig } from '../../main/config.js';

/** What a node runs with when neither a flag nor node.json says otherwise. */
const BASE = defaultConfig('.');

export const homeOption = text('data folder', { valueName: 'DIR', default: './.chain-node' });

/** The --home folder as an absolute path. */
export const homeOf = (home: string) => resolve(home);

/** The genesis settings init, dev and testnet write. */
export const genesisOptions = {
  'epoch-length': integer('blocks per epoch written into the genesis', { min: 1, max: 1_000_000 }),
  accounts: integer('funded developer accounts, 1,000,000 coins each', { min: 0, max: 1000, default: 3 }),
  'protocol-version': choice(
    `the protocol version the genesis starts at (default ${NEWEST_PROTOCOL_VERSION}, the newest this ` +
      'build runs; 1.0.0 for a network with nodes of a build older than upgrade plans)',
    supportedVersions(MIGRATIONS),
    { valueName: 'V' },
  ),
};

/** How `start` (and `dev`) runs the node; flags override <home>/node.json. */
export const startOptions = {
  port: integer(`RPC port (default ${BASE.port})`, { min: 0, max: 65_535 }),
  host: text(`RPC listen address (default ${BASE.host}; 0.0.0.0 in containers)`, { valueName: 'ADDR' }),
  'p2p-port': integer(`peer-to-peer port (default ${BASE.p2pPort})`, { min: 0, max: 65_535 }),
  'p2p-host': text(`peer-to-peer listen address (default ${BASE.p2pHost})`, { valueName: 'ADDR' }),
  'p2p-announce': list(
    'comma-separated multiaddrs peers are told to dial instead of the listen addresses, e.g. ' +
      '/dns4/validator-0/tcp/9000',
    {},
  ),
  bootstrap: list('comma-separated multiaddrs of peers, each with /p2p/<peer id>', {}),
  'state-sync': flag(
    'with an empty store, join from a recent snapshot fetched from peers and verified against the ' +
      'committed header at its height, instead of replaying every block from 1',
  ),
  'no-p2p': flag('run without the peer-to-peer network'),
  genesis: text('genesis file (default <home>/genesis.json)', { valueName: 'FILE' }),
  key: text('validator key file (default <home>/validator_key.json if present)', { valueName: 'FILE' }),
  'block-time': duration('time between blocks, e.g. 500ms, 2s (default: the genesis block_time_ms)', {}),
  'mempool-ttl': duration('pending transactions expire after D', { default: BASE.mempool.ttlMs }),
  'mempool-cleanup': duration('how often expired ones are removed', { default: BASE.mempoolCleanupMs }),
  'record-consensus': flag(
    'record the consensus core (its inputs, the answers of its edges, its actions) into ' +
      '<home>/consensus-record.jsonl (at most 2 x 8 MB, the older half in .1): `devnet replay` ' +
      're-executes it (docs/PROTOCOL.md, "Consensus records")',
  ),
  'fault-injection': flag(
    'honour <home>/blocked_peers.json, a JSON array of peer ids the node refuses to talk to (devnet ' +
      'disconnect/connect, partition tests); without it the file is ignored',
  ),
  byzantine: choice(
    'TEST ONLY, devnet genesis only: a Byzantine validator that signs two versions of every proposal ' +
      'and vote and sends each to half its peers',
    BYZANTINE_MODES,
    {},
  ),
  'fail-point': choice(
    'TEST ONLY, with --fault-injection: the node kills itself (SIGKILL) once it has recorded its first ' +
      'lock, before it stores the block (lock-recorded), or its first proposal, before it sends it ' +
      '(proposal-recorded) (crash tests)',
    FAIL_POINTS,
    {},
  ),
};

/** Where start's settings come from besides the flags. */
export const START_DETAILS =
  'Settings in <home>/node.json (port, p2p_port, host, p2p_host, p2p_announce, bootstrap, block_time, state_sync) ' +
  'are used by start; flags override them.';

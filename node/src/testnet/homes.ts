/**
 * The files of a node's home folder, as `chain-node start --home DIR` reads them: genesis.json,
 * validator_key.json, p2p_key (its peer identity; without one the node makes a random one),
 * node.json (ports, addresses, bootstrap peers) and accounts.json (development keys, mode 600).
 * Written by chain-node init and testnet and by the devnet, from a generated network. Plus
 * blocked_peers.json, the peers a node run with --fault-injection refuses (the devnet's
 * disconnect and partition).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenesisJson } from '../chain/index.js';
import { BLOCKED_PEERS_FILE, formatBlockedPeers } from '../faults/blockedPeersFile.js';
import { type KeyFile, writeKeyFile } from '../home/keyFile.js';
import type { NodeFile } from '../home/nodeFile.js';
import { type PeerKey, writePeerKey } from '../p2p/peerKey.js';
import type { PeerRefusal } from '../p2p/peerRefusal.js';

export interface HomeFiles {
  readonly genesis: GenesisJson;
  readonly validatorKey: Uint8Array;
  readonly peerKey?: PeerKey;
  readonly nodeFile?: NodeFile;
  readonly accounts?: readonly (KeyFile & { readonly balance: string })[];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export async function writeNodeHome(home: string, f: HomeFiles): Promise<void> {
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'genesis.json'), json(f.genesis));
  await writeKeyFile(join(home, 'validator_key.json'), f.validatorKey);
  if (f.peerKey !== undefined) await writePeerKey(join(home, 'p2p_key'), f.peerKey);
  if (f.nodeFile !== undefined) await writeNodeFile(home, f.nodeFile);
  if (f.accounts !== undefined)
    await writeFile(join(home, 'accounts.json'), json(f.accounts), { mode: 0o600 });
}

/** <home>/node.json: the node's ports, addresses and bootstrap peers. */
export async function writeNodeFile(home: string, nodeFile: NodeFile): Promise<void> {
  await writeFile(join(home, 'node.json'), json(nodeFile));
}

/** <home>/blocked_peers.json: the peers the node refuses (read twice a second with --fault-injection). */
export async function writeBlockedPeers(home: string, rule: PeerRefusal): Promise<void> {
  await writeFile(join(home, BLOCKED_PEERS_FILE), formatBlockedPeers(rule));
}

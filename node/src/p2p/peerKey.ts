/**
 * The node's peer identity: an Ed25519 key kept in <home>/p2p_key (libp2p's protobuf form), so
 * the peer id is stable across restarts. A seed makes it reproducible (the devnet derives every
 * node's key from its own seed, so it knows the peer ids before any node starts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import {
  generateKeyPair,
  generateKeyPairFromSeed,
  privateKeyFromProtobuf,
  privateKeyToProtobuf,
} from '@libp2p/crypto/keys';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';
import { sha256 } from '../crypto/hash.js';

/** The key type of @libp2p/crypto (two @libp2p/interface versions coexist in the tree; this is the one it returns). */
export type PeerKey = ReturnType<typeof privateKeyFromProtobuf>;

export async function peerKeyFromSeed(seed: Uint8Array): Promise<PeerKey> {
  return generateKeyPairFromSeed('Ed25519', sha256(seed));
}

/** The peer key of the node named `name` in a network derived from `seed` (chain-node testnet and the devnet). */
export function nodePeerKey(seed: Uint8Array, name: string): Promise<PeerKey> {
  return peerKeyFromSeed(new Uint8Array([...seed, ...new TextEncoder().encode(`/p2p/${name}`)]));
}

export function peerIdOf(key: PeerKey): string {
  return peerIdFromPrivateKey(key as never).toString();
}

export async function writePeerKey(path: string, key: PeerKey): Promise<void> {
  await writeFile(path, privateKeyToProtobuf(key), { mode: 0o600 });
}

/** Loads the key at `path`, or creates (and saves) a new random one when there is none. */
export async function loadOrCreatePeerKey(path: string): Promise<PeerKey> {
  let raw: Uint8Array | null = null;
  try {
    raw = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (raw !== null) {
    try {
      return privateKeyFromProtobuf(raw);
    } catch (e) {
      throw new Error(
        `peer key ${path} is unreadable (${(e as Error).message}): remove it to get a new identity`,
      );
    }
  }
  const key = await generateKeyPair('Ed25519');
  await writePeerKey(path, key);
  return key;
}

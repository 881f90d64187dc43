/**
 * TEST ONLY: the snapshot protocol served by the rogue peer (roguePeer.ts) from a real chain, with
 * one lie: a corrupt chunk (a byte flipped: the content no longer hashes to the offer), a chunk
 * missing (the last one answered with an error), bytes beyond the offer's size (the last chunk
 * one byte longer), or a forged state (an account's balance changed and the snapshot re-encoded,
 * so hash and sizes agree with its own offer but its root is not the committed header's).
 */
import { decodeSnapshot, encodeSnapshot } from '../../src/chain/index.js';
import { decodeJson, encodeJson } from '../../src/p2p/messages.js';
import type { P2PNetwork } from '../../src/p2p/network.js';
import { SNAPSHOT_PROTOCOL, SYNC_PROTOCOL } from '../../src/p2p/protocol.js';
import {
  chunkCount,
  decodeSnapshotRequest,
  encodeChunk,
  encodeOffers,
  SNAPSHOT_CHUNK_BYTES,
  type SnapshotOffer,
} from '../../src/p2p/snapshotMessages.js';
import type { ChainService } from '../../src/service/chainService.js';

/** 'honest' serves the snapshots as they are (for a rogue whose lie is elsewhere, e.g. its commits). */
export type SnapshotLie = 'honest' | 'corrupt' | 'missing-chunk' | 'oversized' | 'forged-state';

/** The file it serves for the snapshot at `height`, with its offer. */
async function servedFile(
  source: ChainService,
  height: number,
  lie: SnapshotLie,
): Promise<{ offer: SnapshotOffer; file: Uint8Array } | null> {
  const found = await source.snapshotFile(height);
  if (found === null) return null;
  let { file } = found;
  let hash = found.record.hash;
  if (lie === 'forged-state') {
    const { state } = decodeSnapshot(file, hash);
    const accounts = new Map(state.accounts);
    const [address, account] = [...accounts.entries()][0]!;
    accounts.set(address, { ...account, balance: account.balance + 1_000_000n });
    const forged = encodeSnapshot({ ...state, accounts });
    file = forged.file;
    hash = forged.info.hash;
  }
  return { offer: { height, hash, size: file.length, chunks: chunkCount(file.length) }, file };
}

/** Serves /chain/snapshot/1.0.0 from `source`'s snapshots, lying as `lie` says; counts chunk requests. */
export async function serveLyingSnapshots(
  network: P2PNetwork,
  source: ChainService,
  lie: SnapshotLie,
  chunkRequests: number[],
): Promise<void> {
  await network.serve(SNAPSHOT_PROTOCOL, async (bytes) => {
    const req = decodeSnapshotRequest(bytes);
    if (typeof req === 'string') return encodeJson({ error: req });
    if (req.type === 'offers') {
      const offers: SnapshotOffer[] = [];
      for (const r of await source.snapshots()) {
        const served = await servedFile(source, r.height, lie);
        if (served !== null) offers.push(served.offer);
      }
      return encodeOffers(offers);
    }
    chunkRequests.push(req.height);
    const served = await servedFile(source, req.height, lie);
    if (served === null) return encodeJson({ error: 'no such snapshot' });
    const { offer, file } = served;
    const last = req.index === offer.chunks - 1;
    if (lie === 'missing-chunk' && last) return encodeJson({ error: `no chunk ${req.index}` });
    const chunk = new Uint8Array(
      file.subarray(req.index * SNAPSHOT_CHUNK_BYTES, (req.index + 1) * SNAPSHOT_CHUNK_BYTES),
    );
    if (lie === 'corrupt' && req.index === 0) chunk[Math.floor(chunk.length / 2)]! ^= 0xff;
    if (lie === 'oversized' && last) return encodeChunk(new Uint8Array([...chunk, 0]));
    return encodeChunk(chunk);
  });
}

/**
 * Serves block sync and the snapshot protocol by asking `upstream` (a real node) and passing its
 * answers on, each chunk through `rewrite`; counts the chunk requests it passed on.
 */
async function serveProxy(
  network: P2PNetwork,
  upstream: string,
  chunkRequests: number[],
  rewrite: (chunk: Uint8Array) => Uint8Array,
): Promise<void> {
  await network.serve(SYNC_PROTOCOL, (bytes) => network.request(upstream, SYNC_PROTOCOL, bytes, 8000));
  await network.serve(SNAPSHOT_PROTOCOL, async (bytes) => {
    const answer = await network.request(upstream, SNAPSHOT_PROTOCOL, bytes, 8000);
    const req = decodeSnapshotRequest(bytes);
    if (typeof req === 'string' || req.type === 'offers') return answer;
    chunkRequests.push(req.height);
    const { chunk } = decodeJson(answer) as { chunk?: string };
    if (chunk === undefined) return answer;
    return encodeChunk(rewrite(new Uint8Array(Buffer.from(chunk, 'base64'))));
  });
}

/** A proxy to `upstream` (a real node) with one byte of every snapshot chunk flipped: a rogue among real nodes. */
export function serveCorruptingProxy(network: P2PNetwork, upstream: string, chunkRequests: number[]) {
  return serveProxy(network, upstream, chunkRequests, (raw) => {
    raw[Math.floor(raw.length / 2)]! ^= 0xff;
    return raw;
  });
}

/**
 * A stranger relaying `upstream`'s genuine answers unchanged (it announces no genesis, so no node
 * refuses it at the handshake): how a sister devnet's chain reaches a joiner of another one.
 */
export function serveRelay(network: P2PNetwork, upstream: string, chunkRequests: number[]) {
  return serveProxy(network, upstream, chunkRequests, (raw) => raw);
}

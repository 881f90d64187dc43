/**
 * TEST ONLY: the snapshot protocol served by the rogue peer (roguePeer.ts) from a real chain, with
 * one lie: a corrupt chunk (a byte flipped: the content no longer hashes to the offer), a chunk
 * missing (the last one answered with an error), bytes beyond the offer's size (the last chunk
 * one byte longer), a forged state (an account's balance changed and the snapshot re-encoded,
 * so hash and sizes agree with its own offer but its root is not the committed header's), an
 * entries bomb (its newest snapshot's real state with `bombEntries` junk accounts added, all alike:
 * a few bytes of gzip each, its offer's hash its own; issue 39: 2,000,000 of them in about 5.5 MB), or slow
 * chunks (the real file, each chunk answered `chunkDelayMs` late: just inside a chunk's bound).
 */
import { Gzip } from 'fflate';
import { Writer } from '../../src/chain/codec/encoding.js';
import {
  type ChainState,
  decodeSnapshot,
  encodeSnapshot,
  SNAPSHOT_DOMAIN,
  stateEntries,
} from '../../src/chain/index.js';
import { encodeAccount } from '../../src/chain/state/entries.js';
import { sha256Stream } from '../../src/crypto/hash.js';
import { bytesToHex } from '../../src/crypto/hex.js';
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
export type SnapshotLie =
  | 'honest'
  | 'corrupt'
  | 'missing-chunk'
  | 'oversized'
  | 'forged-state'
  | 'entries-bomb'
  | 'slow-chunks';

export interface SnapshotLieOptions {
  /** entries-bomb: junk accounts added (default 2,000,000). */
  readonly bombEntries?: number;
  /** slow-chunks: how late each chunk is answered (default 1900 ms). */
  readonly chunkDelayMs?: number;
}

/**
 * The snapshot content of `state` with `extra` junk accounts after its real ones, gzipped as it is
 * written (the content, about 80 bytes an entry, is never held whole): the file and its hash.
 */
function entriesBomb(state: ChainState, extra: number): { file: Uint8Array; hash: string } {
  const parts: Uint8Array[] = [];
  const gzip = new Gzip({ level: 6, mtime: 0 }, (data) => parts.push(data));
  const hasher = sha256Stream();
  let w = new Writer();
  const flush = (final: boolean) => {
    const bytes = w.finish();
    hasher.update(bytes);
    gzip.push(bytes, final);
    w = new Writer();
  };
  const entries = stateEntries(state);
  w.str(SNAPSHOT_DOMAIN)
    .str(state.params.chainId)
    .u64(state.height)
    .rawHex(state.lastBlockHash, 32)
    .u64(state.lastTimestamp)
    .u32(entries.length + extra);
  const junk = encodeAccount({ balance: 1n, nonce: 0, rewardHistory: new Map() });
  let added = false;
  for (const e of entries) {
    // After every real account ('a/coin1…' sorts below 'a/coin1zzzzzzzzzz…'), before 'c/'.
    if (!added && !e.key.startsWith('a/')) {
      for (let i = 0; i < extra; i++) {
        w.str(`a/coin1zzzzzzzzzz${i.toString().padStart(8, '0')}`).bytes(junk);
        if (i % 4096 === 4095) flush(false);
      }
      added = true;
    }
    w.str(e.key).bytes(e.value);
  }
  flush(true);
  const file = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    file.set(p, at);
    at += p.length;
  }
  return { file, hash: bytesToHex(hasher.digest()) };
}

/** The file it serves for the snapshot at `height`, with its offer. */
async function servedFile(
  source: ChainService,
  height: number,
  lie: SnapshotLie,
  o: SnapshotLieOptions,
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
  // The bomb is its newest offer, the one a joiner tries first (each takes seconds to write).
  const newest = Math.max(...(await source.snapshots()).map((r) => r.height));
  if (lie === 'entries-bomb' && height === newest)
    ({ file, hash } = entriesBomb(decodeSnapshot(file, hash).state, o.bombEntries ?? 2_000_000));
  return { offer: { height, hash, size: file.length, chunks: chunkCount(file.length) }, file };
}

/** Serves /chain/snapshot/1.0.0 from `source`'s snapshots, lying as `lie` says; counts chunk requests. */
export async function serveLyingSnapshots(
  network: P2PNetwork,
  source: ChainService,
  lie: SnapshotLie,
  chunkRequests: number[],
  o: SnapshotLieOptions = {},
): Promise<void> {
  // Each height's file made once (a bomb takes seconds to write).
  const files = new Map<number, Promise<{ offer: SnapshotOffer; file: Uint8Array } | null>>();
  const fileAt = (height: number) => {
    let f = files.get(height);
    if (f === undefined) {
      f = servedFile(source, height, lie, o);
      files.set(height, f);
    }
    return f;
  };
  // Made before it serves: an offers request is answered at once, as an honest peer's is.
  await Promise.all((await source.snapshots()).map((r) => fileAt(r.height)));
  await network.serve(SNAPSHOT_PROTOCOL, async (bytes) => {
    const req = decodeSnapshotRequest(bytes);
    if (typeof req === 'string') return encodeJson({ error: req });
    if (req.type === 'offers') {
      const offers: SnapshotOffer[] = [];
      for (const r of await source.snapshots()) {
        const served = await fileAt(r.height);
        if (served !== null) offers.push(served.offer);
      }
      return encodeOffers(offers);
    }
    chunkRequests.push(req.height);
    const served = await fileAt(req.height);
    if (served === null) return encodeJson({ error: 'no such snapshot' });
    if (lie === 'slow-chunks') await new Promise((resolve) => setTimeout(resolve, o.chunkDelayMs ?? 1900));
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

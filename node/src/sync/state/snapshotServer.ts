/**
 * Serves `/chain/snapshot/1.0.0` (docs/PROTOCOL.md, "Snapshot protocol"): the snapshots this node
 * keeps as offers, and their gzip files chunk by chunk, so that a late joiner can start from a
 * recent state instead of replaying every block. The last file read is kept, since a joiner asks
 * for one snapshot's chunks in a row.
 */

import { encodeJson } from '../../p2p/messages.js';
import type { SyncPort } from '../../p2p/network.js';
import { SNAPSHOT_PROTOCOL } from '../../p2p/protocol.js';
import {
  chunkCount,
  decodeSnapshotRequest,
  encodeChunk,
  encodeOffers,
  MAX_SNAPSHOT_FILE_BYTES,
  MAX_SNAPSHOT_OFFERS,
  SNAPSHOT_CHUNK_BYTES,
} from '../../p2p/snapshotMessages.js';
import type { ChainService } from '../../service/chainService.js';

export async function serveSnapshots(service: ChainService, network: SyncPort): Promise<void> {
  let cached: { height: number; file: Uint8Array } | null = null;
  await network.serve(SNAPSHOT_PROTOCOL, async (bytes) => {
    const req = decodeSnapshotRequest(bytes);
    if (typeof req === 'string') return encodeJson({ error: req });
    if (!service.ready) return encodeJson({ error: 'not ready' });
    if (req.type === 'offers') {
      const records = (await service.snapshots()).filter((r) => r.sizeBytes <= MAX_SNAPSHOT_FILE_BYTES);
      return encodeOffers(
        records.slice(0, MAX_SNAPSHOT_OFFERS).map((r) => ({
          height: r.height,
          hash: r.hash,
          chunks: chunkCount(r.sizeBytes),
          size: r.sizeBytes,
        })),
      );
    }
    if (cached?.height !== req.height) {
      const found = await service.snapshotFile(req.height);
      if (found === null) return encodeJson({ error: `no snapshot at height ${req.height}` });
      cached = { height: req.height, file: found.file };
    }
    const start = req.index * SNAPSHOT_CHUNK_BYTES;
    if (start >= cached.file.length) return encodeJson({ error: `no chunk ${req.index}` });
    return encodeChunk(cached.file.subarray(start, start + SNAPSHOT_CHUNK_BYTES));
  });
}

/**
 * The RPC's snapshots: the list, one snapshot's detail (verified as it is read: one whose file no
 * longer hashes to its record is not served), and, an extension (issue 27, a devnet forked from a
 * running network; docs/PROTOCOL.md), its content: the gzip file as stored, the one canonical
 * encoding state sync also serves, one answer at a time (a file is up to 256 MiB).
 */
import { HttpError, sendJson } from '@chain-devnet/kit/http';
import { MAX_SNAPSHOT_FILE_BYTES } from '../../chain/index.js';
import type { SnapshotsAnswer } from '../answers.js';
import type { RpcBackend } from '../backend.js';
import { heightParam } from '../params.js';
import { snapshotDetail, snapshotListItem } from '../views.js';
import type { Handlers, Ready } from './handler.js';

export function snapshotHandlers(
  backend: RpcBackend,
  ready: Ready,
): Handlers<'snapshots' | 'snapshot' | 'snapshotContent'> {
  let contentInFlight = false;
  return {
    snapshots: async (ctx) => {
      ready();
      sendJson(ctx, 200, {
        snapshots: (await backend.snapshots()).map(snapshotListItem),
      } satisfies SnapshotsAnswer);
    },

    snapshot: async (ctx) => {
      ready();
      const height = heightParam(ctx.params.height);
      let record: Awaited<ReturnType<RpcBackend['snapshot']>>;
      try {
        record = await backend.snapshot(height);
      } catch (e) {
        // A snapshot whose file is missing or does not hash to its recorded value is not served.
        throw new HttpError(500, `Snapshot ${height} failed verification`, (e as Error).message);
      }
      if (record === null) throw new HttpError(404, 'Snapshot not found');
      sendJson(ctx, 200, snapshotDetail(record));
    },

    // A second answer meanwhile is told to come back.
    snapshotContent: async (ctx) => {
      ready();
      const height = heightParam(ctx.params.height);
      if (contentInFlight) {
        ctx.set('Retry-After', '1');
        throw new HttpError(503, 'Busy: another snapshot content answer is in progress; retry in a second');
      }
      contentInFlight = true;
      // Free again once the answer is sent (or its client gone), not when the handler returns.
      ctx.res.once('close', () => {
        contentInFlight = false;
      });
      const found = await backend.snapshotFile(height);
      if (found === null) throw new HttpError(404, 'Snapshot not found');
      if (found.file.length > MAX_SNAPSHOT_FILE_BYTES)
        throw new HttpError(
          500,
          `Snapshot ${height} is ${found.file.length} bytes, over the ${MAX_SNAPSHOT_FILE_BYTES} this endpoint serves`,
        );
      ctx.status = 200;
      ctx.type = 'application/gzip';
      ctx.set('X-Snapshot-Height', String(found.record.height));
      ctx.set('X-Snapshot-Hash', found.record.hash);
      ctx.body = Buffer.from(found.file.buffer, found.file.byteOffset, found.file.length);
    },
  };
}

/**
 * A failed run, reopened at its failure: beside the kept logs, the archive of the devnet as it
 * failed (`devnet.tar.gz`, `devnet save`'s format), which `devnet up --from` reopens for a person
 * (status, the panel, the RPC). And the manifest inside an archive, which Testnet.restore needs
 * before the devnet exists (its node count, for a free base port).
 */
import { join } from 'node:path';
import { readArchive } from '../../archive/read.js';
import type { Devnet } from '../../devnet/devnet.js';
import { save } from '../../operations/save.js';
import type { Manifest } from '../../spec/manifest.js';
import type { DevnetState } from '../../state/devnetState.js';

/** The archive's file name in a kept-logs folder. */
export const FAILURE_ARCHIVE = 'devnet.tar.gz';

/** Saves the devnet into `dir` (a runtime that cannot save says why in the log; the run goes on ending). */
export async function keepArchive(
  devnet: Devnet,
  dir: string,
  restart: boolean,
  log: (line: string) => void,
): Promise<void> {
  const file = join(dir, FAILURE_ARCHIVE);
  try {
    const r = await save(devnet, file, () => undefined, { restart });
    log(
      `the devnet as it failed (heights ${JSON.stringify(r.manifest.heights)}) kept in ${file}: reopen it with devnet up --from ${file}`,
    );
  } catch (e) {
    log(`the devnet was not archived: ${(e as Error).message}`);
  }
}

export async function archivedManifest(file: string): Promise<Manifest> {
  const a = await readArchive(file);
  return (JSON.parse(a.devnetFiles.get('devnet/devnet.json')!.toString('utf8')) as DevnetState).input
    .manifest;
}

/**
 * TEST ONLY: the older build of this repository the node's tests run (OLDER_COMMIT), a real older
 * build made by the one builder (harness gitBuild.ts) into the build cache the devnet's `git:`
 * versions use: built once by whichever test (node, devnet or e2e) needs it first, reused after.
 */
import { fileURLToPath } from 'node:url';
import { chainNodeProgram, gitBuild, OLDER_COMMIT } from '../../src/harness/index.js';

/** This checkout: this file runs from node/dist/tests/support/. */
export const CHECKOUT = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');

export interface OlderBuild {
  /** Its folder in the build cache. */
  readonly dir: string;
  /** Its `chain-node` script (run it with this Node). */
  readonly chainNode: string;
}

/** The build of OLDER_COMMIT, built now unless it was; `progress` hears the build's lines. */
export async function olderBuild(progress?: (line: string) => void): Promise<OlderBuild> {
  const dir = await gitBuild({
    root: CHECKOUT,
    ref: OLDER_COMMIT,
    commit: OLDER_COMMIT,
    ...(progress === undefined ? {} : { progress }),
  });
  const chainNode = chainNodeProgram(dir);
  if (chainNode === null) throw new Error(`the build of ${OLDER_COMMIT} in ${dir} has no chain-node`);
  return { dir, chainNode };
}

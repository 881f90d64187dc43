/**
 * TEST ONLY: the older build of this repository the node's tests run (OLDER_COMMIT), a real older
 * build made by the one builder (harness gitBuild.ts) into the build cache the devnet's `git:`
 * versions use: built once by whichever test (node, devnet or e2e) needs it first, reused after.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED_CHAIN_NODE, gitBuild, OLDER_COMMIT } from '../../src/builds/index.js';

/** This checkout: this file runs from node/dist/tests/support/. */
export const CHECKOUT = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');

export interface OlderBuild {
  /** Its folder in the build cache. */
  readonly dir: string;
  /**
   * Its compiled `chain-node` (run it with this Node): the same kind of program as this
   * checkout's that the tests' clusters run (processes.ts CHAIN_NODE), not its bundle, which the
   * devnet prefers (harness chainNodeProgram). With the bundle the mixed cluster of
   * system/mixedVersions reached height 3 later than its bound in 3 of 4 runs at load 50-60 (the
   * compiled one: within it, 21 s for the whole test).
   */
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
  const chainNode = join(dir, COMPILED_CHAIN_NODE);
  if (!existsSync(chainNode)) throw new Error(`the build of ${OLDER_COMMIT} in ${dir} has no ${chainNode}`);
  return { dir, chainNode };
}

/**
 * The older build of this repository the version tests run: a real commit before the versions
 * of nodes existed (its nodes answer no GET /upgrades: their version is "unknown"), built into the
 * build cache once (versions/gitBuild.ts) by whichever test needs it first; the others reuse it.
 */
import { gitBuild } from '../../src/versions/gitBuild.js';

export const OLDER_COMMIT = '63f6fa17876cfbfa9eb58a290a3e573c59125a94';
export const OLDER_VERSION = `git:${OLDER_COMMIT}`;
/** How status shows it. */
export const OLDER_SHOWN = `git:${OLDER_COMMIT.slice(0, 12)}`;

/** Its build folder, built now unless it was; `progress` hears the build's lines. */
export function olderBuild(progress: (line: string) => void = () => undefined): Promise<string> {
  return gitBuild(OLDER_COMMIT, OLDER_COMMIT, progress);
}

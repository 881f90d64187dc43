/**
 * TEST ONLY: the chain-node of an older commit of this repository, a real older build: its node
 * package (and the root tsconfig it extends) taken from git at that commit into a temporary
 * folder and compiled there, with this checkout's node_modules (the libraries the node imports).
 * `remove()` deletes the folder.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProgram } from '../../src/harness/index.js';

/** The repository root: this file runs from node/dist/tests/support/. */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface OlderBuild {
  /** Its `chain-node` script (run it with this Node). */
  readonly chainNode: string;
  remove(): Promise<void>;
}

export async function olderBuild(commit: string): Promise<OlderBuild> {
  const dir = await mkdtemp(join(tmpdir(), 'chain-older-build-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const run = async (what: string, args: string[], timeoutMs: number) => {
      const r = await runProgram({ command: args[0]!, args: args.slice(1), timeoutMs });
      if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${r.stderr.slice(-2000)}`);
    };
    await run(
      `git archive of ${commit}`,
      ['sh', '-c', `git -C "${ROOT}" archive --format=tar ${commit} node tsconfig.json | tar -x -C "${dir}"`],
      60_000,
    );
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    await run(
      `the build of ${commit}`,
      [process.execPath, join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', join(dir, 'node')],
      600_000,
    );
    return { chainNode: join(dir, 'node/bin/chain-node.js'), remove };
  } catch (e) {
    await remove();
    throw e;
  }
}

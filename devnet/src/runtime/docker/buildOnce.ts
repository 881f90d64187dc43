/**
 * An image built once on this machine, however many devnets ask for it at once: the check that
 * it is there and its build run under one lock between processes (@chain-devnet/kit/process
 * withFileLock, one per tag), and the check is made again once the lock is held. Without it, two
 * test files (or two people's devnets) that found the checkout's node image missing both built
 * it: the tag moved to the second build, so nodes started before ran another image id than those
 * started after (devnet/tests/versions/dockerVersion.test.ts, "this checkout image now", failed so
 * beside another docker file).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '@chain-devnet/kit/process';

/** An image build takes minutes on a cold cache; a waiter waits for that. */
const BUILD_WAIT_MS = 15 * 60_000;

export interface BuildOnce {
  /** Whether the image is there. */
  readonly exists: () => Promise<boolean>;
  /** Makes it. */
  readonly build: () => Promise<void>;
  /** Said when another process builds it and this one waits. */
  readonly onWait?: () => void;
}

/** The lock file of a tag: in the temp folder, its name the tag with anything but [\w.-] as `_`. */
export const buildLockOf = (tag: string): string =>
  join(tmpdir(), `chain-devnet-image-${tag.replace(/[^\w.-]/g, '_')}.lock`);

/** Builds `tag` unless it is there, once across the processes of this machine; true when this call built it. */
export async function buildOnce(tag: string, o: BuildOnce): Promise<boolean> {
  if (await o.exists()) return false;
  return withFileLock(
    buildLockOf(tag),
    {
      what: `the image build lock of ${tag} (another devnet builds it)`,
      timeoutMs: BUILD_WAIT_MS,
      pollMs: 250,
      ...(o.onWait === undefined ? {} : { onWait: o.onWait }),
    },
    async () => {
      if (await o.exists()) return false;
      await o.build();
      return true;
    },
  );
}

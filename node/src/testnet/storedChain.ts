/**
 * Whether a node's home holds a store it can go on from, read with the node stopped: what
 * `devnet up --from` asks of every restored node before anything starts (the node's own start
 * checks the same: store/checkedHead.ts). Null when it does (or holds no store yet), else why not.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Genesis } from '../chain/index.js';

export interface StoredChain {
  /** The head's height, or null: no store yet. */
  readonly height: number | null;
  /** Why the node could not go on from it, or null. */
  readonly problem: string | null;
}

export async function storedChain(home: string, genesis: Genesis): Promise<StoredChain> {
  const path = join(home, 'data');
  if (!existsSync(path)) return { height: null, problem: null };
  // Loaded here, not with the module: LevelDB's addon is kept off the devnet command's start (storedHeight.ts).
  const [{ ChainStore }, { loadCheckedHead }, { StoreError }] = await Promise.all([
    import('../store/chainStore.js'),
    import('../store/checkedHead.js'),
    import('../store/errors.js'),
  ]);
  const store = await ChainStore.open(path).catch((e: Error) => e);
  if (store instanceof Error) return { height: null, problem: store.message };
  try {
    const height = await store.height();
    try {
      await loadCheckedHead(store, genesis);
      return { height, problem: null };
    } catch (e) {
      if (e instanceof StoreError) return { height, problem: e.message };
      throw e;
    }
  } finally {
    await store.close();
  }
}

/**
 * The last final height a node's home holds (its store under <home>/data), read with the node
 * stopped: what `devnet save` records of each node it archives. Null for a home with no store yet.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ChainStore } from '../store/chainStore.js';

export async function storedHeight(home: string): Promise<number | null> {
  const path = join(home, 'data');
  if (!existsSync(path)) return null;
  const store = await ChainStore.open(path);
  try {
    return await store.height();
  } finally {
    await store.close();
  }
}

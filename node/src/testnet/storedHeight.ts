/**
 * The last final height a node's home holds (its store under <home>/data), read with the node
 * stopped: what `devnet save` records of each node it archives. Null for a home with no store yet.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export async function storedHeight(home: string): Promise<number | null> {
  const path = join(home, 'data');
  if (!existsSync(path)) return null;
  // Loaded here, not with the module: the devnet command imports this package for every command,
  // and LevelDB's native addon took 56 ms of its start (docs/BENCHMARKS.md, "Memory and start-up").
  const { ChainStore } = await import('../store/chainStore.js');
  const store = await ChainStore.open(path);
  try {
    return await store.height();
  } finally {
    await store.close();
  }
}

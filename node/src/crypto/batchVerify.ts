/**
 * Many signatures at once: `verifyDigestBatch(items)[i]` is exactly
 * `verifyDigest(...items[i])`, from the verifier in use (activeVerifier.ts), at less cost per
 * signature than one at a time (the pure-JS verifier's batch equation is nobleBatch.ts's).
 */
import { currentVerifier } from './activeVerifier.js';
import { type CheckedItem, checkItem, type SignedDigest } from './signatureForm.js';

export { batchEquationHolds } from './nobleBatch.js';
export type { SignedDigest };

/** For each item, exactly the answer verifyDigest(digest, signatureHex, publicKeyHex) gives. */
export function verifyDigestBatch(items: readonly SignedDigest[]): boolean[] {
  const out = new Array<boolean>(items.length).fill(false);
  const ready: CheckedItem[] = [];
  const at: number[] = [];
  for (const [i, item] of items.entries()) {
    const checked = checkItem(item);
    if (checked === null) continue;
    ready.push(checked);
    at.push(i);
  }
  if (ready.length === 0) return out;
  for (const [j, ok] of currentVerifier().verifyBatch(ready).entries()) out[at[j]!] = ok;
  return out;
}

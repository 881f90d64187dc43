/**
 * The simulation's one source of randomness: a stream drawn from a seed, the same numbers for
 * the same seed on every machine. sfc32 (a small, fast generator that passes PractRand's tests)
 * keyed by SHA-256 of the seed and a label. Each part of a run draws from a stream of its own
 * (`fork`), so a part that draws one number more does not shift every draw after it elsewhere,
 * and a shrunk schedule keeps the draws of the parts it kept.
 */
import { sha256 } from '@noble/hashes/sha2.js';

export interface SimRandom {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** An independent stream for the part named `label`. */
  fork(label: string): SimRandom;
}

export function seededRandom(seed: string, label = ''): SimRandom {
  const key = sha256(new TextEncoder().encode(`${seed}\u0000${label}`));
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  let a = view.getUint32(0);
  let b = view.getUint32(4);
  let c = view.getUint32(8);
  let d = view.getUint32(12);
  const u32 = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs of a fresh state are mixed little; they are thrown away.
  for (let i = 0; i < 12; i++) u32();
  const next = () => u32() / 4294967296;
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => p > 0 && next() < p,
    fork: (sub) => seededRandom(seed, label === '' ? sub : `${label}/${sub}`),
  };
}

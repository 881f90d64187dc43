/**
 * The testkit's randomness (fresh wallets' keys, a load's draw of transaction types), through one
 * seam: the system's, unless a simulation installs one drawn from its seed (SimTestnet), so that
 * a test on the simulation makes the same keys and the same draws on every run of a seed, and its
 * run (every transaction's hash, every header) is the same too.
 */
import { randomBytes } from 'node:crypto';
import { sha256 } from '@chain-devnet/node/crypto';

export interface TestRandom {
  bytes(n: number): Uint8Array;
  /** A number in [0, 1). */
  float(): number;
}

const SYSTEM: TestRandom = {
  bytes: (n) => new Uint8Array(randomBytes(n)),
  float: () => Math.random(),
};

let current: TestRandom = SYSTEM;

/** Makes `r` the testkit's randomness; the returned function puts the one before back. */
export function useTestRandom(r: TestRandom): () => void {
  const before = current;
  current = r;
  return () => {
    current = before;
  };
}

/** The testkit's randomness now. */
export const testRandom: TestRandom = {
  bytes: (n) => current.bytes(n),
  float: () => current.float(),
};

/** Bytes and numbers from `seed` alone: SHA-256 of the seed and a counter, block after block. */
export function seededTestRandom(seed: string): TestRandom {
  const encoder = new TextEncoder();
  let counter = 0;
  const block = () => sha256(encoder.encode(`${seed}:${counter++}`));
  return {
    bytes(n) {
      const out = new Uint8Array(n);
      for (let at = 0; at < n; at += 32) out.set(block().subarray(0, Math.min(32, n - at)), at);
      return out;
    },
    float() {
      const b = block();
      // 52 bits of the block, as a double's mantissa holds them.
      const high = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
      const low = ((b[4]! << 12) | (b[5]! << 4) | (b[6]! >> 4)) >>> 0;
      return (high * 2 ** 20 + low) / 2 ** 52;
    },
  };
}

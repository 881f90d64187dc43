/**
 * Signature-check benchmark (docs/BENCHMARKS.md, "Batch signature checks"): CPU microseconds per
 * signature of `verifyDigest` one at a time against `verifyDigestBatch` at several batch sizes,
 * side by side in one run, median over rounds (CPU time: the machine is shared and noisy).
 *   - known keys: the senders' keys were seen before (decompressed keys cached, the usual case:
 *     senders repeat);
 *   - new keys: every signature from a key never seen (the decompression paid each time);
 *   - one bad: known keys, one forged signature (flipped v, well-formed) in every batch, which
 *     the batch must find by bisection.
 * Every column checks the same number of signatures per round; the order of the columns rotates
 * from round to round.
 *   flock /tmp/bench.lock npm run bench:signatures [-- --rounds 7 --signatures 128]
 */
import { parseArgs } from 'node:util';
import { type SignedDigest, verifyDigestBatch } from '../src/crypto/batchVerify.js';
import { sha256, utf8Bytes } from '../src/crypto/hash.js';
import { bytesToHex } from '../src/crypto/hex.js';
import { privateKeyFromSeed, publicKeyHexOf } from '../src/crypto/keys.js';
import { signDigest, verifyDigest } from '../src/crypto/signature.js';
import { median } from '../src/util/median.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, signatures: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 7);
const SIGNATURES = Number(values.signatures ?? 128);
const SIZES = [1, 4, 16, 32, 64, 128].filter((size) => size <= SIGNATURES);
const SEED = utf8Bytes('bench:signatures');

function item(key: Uint8Array, label: string): SignedDigest {
  const digest = sha256(utf8Bytes(label));
  return { digest, signatureHex: bytesToHex(signDigest(digest, key)), publicKeyHex: publicKeyHexOf(key) };
}

function forged(valid: SignedDigest): SignedDigest {
  const v = valid.signatureHex.slice(128) === '00' ? '01' : '00';
  return { ...valid, signatureHex: valid.signatureHex.slice(0, 128) + v };
}

const knownKeys = Array.from({ length: SIGNATURES }, (_v, i) => privateKeyFromSeed(SEED, `known ${i}`));
let fresh = 0;
const newKey = () => privateKeyFromSeed(SEED, `new ${fresh++}`);

/**
 * CPU microseconds per signature to check `items` in batches of `size` (0: verifyDigest one by
 * one); `valid` is how many must be accepted (a benchmark of wrong answers measures nothing).
 */
function cpuPerSignature(items: readonly SignedDigest[], size: number, valid = items.length): number {
  const start = process.cpuUsage();
  let accepted = 0;
  if (size === 0) {
    for (const i of items) if (verifyDigest(i.digest, i.signatureHex, i.publicKeyHex)) accepted++;
  } else {
    for (let at = 0; at < items.length; at += size)
      for (const ok of verifyDigestBatch(items.slice(at, at + size))) if (ok) accepted++;
  }
  const used = process.cpuUsage(start);
  if (accepted !== valid) throw new Error(`${accepted} accepted, ${valid} expected`);
  return (used.user + used.system) / items.length;
}

type Column = 'single' | 'known' | 'new' | 'bad';
const samples = new Map<string, number[]>();
const record = (column: Column, size: number, us: number) => {
  const k = `${column} ${size}`;
  samples.set(k, [...(samples.get(k) ?? []), us]);
};

// Warm-up: noble's table of G, the JIT, and the known keys into the batch verifier's cache.
verifyDigestBatch(knownKeys.map((k, i) => item(k, `warm ${i}`)));
const w = item(knownKeys[0]!, 'warm');
for (let i = 0; i < 20; i++) verifyDigest(w.digest, w.signatureHex, w.publicKeyHex);

for (let round = 0; round < ROUNDS; round++) {
  const known = knownKeys.map((k, i) => item(k, `round ${round} tx ${i}`));
  const tasks: (() => void)[] = [() => record('single', 0, cpuPerSignature(known, 0))];
  for (const size of SIZES) {
    tasks.push(() => record('known', size, cpuPerSignature(known, size)));
    // Built outside the timed part: new keys cost a key derivation and a signature each.
    const fromNewKeys = Array.from({ length: SIGNATURES }, (_v, i) => item(newKey(), `new ${round} ${i}`));
    tasks.push(() => record('new', size, cpuPerSignature(fromNewKeys, size)));
    const oneBad = known.map((x, i) => (i % size === size >> 1 ? forged(x) : x));
    const bad = Math.ceil(SIGNATURES / size);
    tasks.push(() => record('bad', size, cpuPerSignature(oneBad, size, SIGNATURES - bad)));
  }
  const shift = (round * 5) % tasks.length;
  for (const task of [...tasks.slice(shift), ...tasks.slice(0, shift)]) task();
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
}

const single = median(samples.get('single 0')!);
const f = (x: number) => x.toFixed(0);
const r = (x: number) => `${x.toFixed(1)}x`;
console.log(
  `Node ${process.version}, ${ROUNDS} rounds of ${SIGNATURES} signatures per column, median CPU µs per signature`,
);
console.log(`verifyDigest one at a time: ${f(single)} µs per signature\n`);
console.log(
  '| batch size | verifyDigest | batch, known keys | speedup | batch, new keys | speedup | one bad per batch | cost vs all valid |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const size of SIZES) {
  const known = median(samples.get(`known ${size}`)!);
  const fresh = median(samples.get(`new ${size}`)!);
  const bad = median(samples.get(`bad ${size}`)!);
  console.log(
    `| ${size} | ${f(single)} | ${f(known)} | ${r(single / known)} | ${f(fresh)} | ${r(single / fresh)} | ${f(bad)} | ${r(bad / known)} |`,
  );
}

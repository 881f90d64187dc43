/**
 * Signature-check benchmark (docs/BENCHMARKS.md, "Batch signature checks" and "Native
 * signature checks"): CPU microseconds per signature, the pure-JS verifier (noble) and the
 * libsecp256k1 one (native) side by side in one run, median over rounds (CPU time: the machine
 * is shared and noisy).
 *   - one at a time: verifyDigest (any key) and verifyDigestForKnownKey (a validator's key);
 *   - batches of several sizes (verifyDigestBatch), from known keys (seen before, the usual case:
 *     senders repeat), from new keys (never seen), and known keys with one forged signature
 *     (flipped v, well-formed) in every batch;
 *   - per transfer: SignatureCache.checkAll over transfers not seen before, as admission checks
 *     them (signing digest, address check, batch verification).
 * Every column checks the same number of signatures per round; the order of the columns rotates
 * from round to round.
 *   flock /tmp/bench.lock npm run bench:signatures [-- --rounds 7 --signatures 128]
 */

import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import { signTx, type Tx, txHash } from '../src/chain/index.js';
import { useVerifier } from '../src/crypto/activeVerifier.js';
import { accountAddressOf } from '../src/crypto/address.js';
import { type SignedDigest, verifyDigestBatch } from '../src/crypto/batchVerify.js';
import { sha256, utf8Bytes } from '../src/crypto/hash.js';
import { bytesToHex } from '../src/crypto/hex.js';
import { privateKeyFromSeed, publicKeyHexOf } from '../src/crypto/keys.js';
import { nobleVerifier } from '../src/crypto/nobleVerifier.js';
import { signDigest, verifyDigest, verifyDigestForKnownKey } from '../src/crypto/signature.js';
import type { Verifier } from '../src/crypto/verifier.js';
import { SignatureCache } from '../src/mempool/signatureCache.js';
import { installVerifierFromEnvironment, loadNativeVerifier } from '../src/mempool/verifierChoice.js';

const { values } = parseBenchArgs({
  options: { rounds: { type: 'string' }, signatures: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 7);
const SIGNATURES = Number(values.signatures ?? 128);
const SIZES = [1, 4, 16, 32, 64, 128].filter((size) => size <= SIGNATURES);
const SEED = utf8Bytes('bench:signatures');
const CHAIN_ID = 'bench-signatures';

// The first SignatureCache of a process installs the verifier the environment asks for: done
// here, before the columns choose theirs.
installVerifierFromEnvironment();
const native = loadNativeVerifier();
if (typeof native === 'string')
  throw new Error(`the native verifier is needed for this benchmark: ${native}`);
const VERIFIERS: readonly Verifier[] = [nobleVerifier, native];

function item(key: Uint8Array, label: string): SignedDigest {
  const digest = sha256(utf8Bytes(label));
  return { digest, signatureHex: bytesToHex(signDigest(digest, key)), publicKeyHex: publicKeyHexOf(key) };
}

function forged(valid: SignedDigest): SignedDigest {
  const v = valid.signatureHex.slice(128) === '00' ? '01' : '00';
  return { ...valid, signatureHex: valid.signatureHex.slice(0, 128) + v };
}

/** A signed transfer from `key` to `to`'s account, with its hash. */
function transfer(key: Uint8Array, to: Uint8Array, nonce: number): { tx: Tx; hash: string } {
  const tx = signTx(
    {
      type: 'TRANSFER',
      from: accountAddressOf(publicKeyHexOf(key)),
      to: accountAddressOf(publicKeyHexOf(to)),
      amount: 1n,
      fee: 21_000n,
      nonce,
      gasPrice: 1,
      gasLimit: 21_000,
      timestamp: 1_700_000_000,
      payload: {},
    },
    key,
    CHAIN_ID,
  );
  return { tx, hash: txHash(tx, CHAIN_ID) };
}

const knownKeys = Array.from({ length: SIGNATURES }, (_v, i) => privateKeyFromSeed(SEED, `known ${i}`));
const validatorKey = privateKeyFromSeed(SEED, 'validator');
let fresh = 0;
const newKey = () => privateKeyFromSeed(SEED, `new ${fresh++}`);

/**
 * CPU microseconds per signature to check `items` in batches of `size` (0: verifyDigest one by
 * one, -1: verifyDigestForKnownKey one by one); `valid` is how many must be accepted (a benchmark
 * of wrong answers measures nothing).
 */
function cpuPerSignature(items: readonly SignedDigest[], size: number, valid = items.length): number {
  const start = process.cpuUsage();
  let accepted = 0;
  if (size <= 0) {
    const check = size === 0 ? verifyDigest : verifyDigestForKnownKey;
    for (const i of items) if (check(i.digest, i.signatureHex, i.publicKeyHex)) accepted++;
  } else {
    for (let at = 0; at < items.length; at += size)
      for (const ok of verifyDigestBatch(items.slice(at, at + size))) if (ok) accepted++;
  }
  const used = process.cpuUsage(start);
  if (accepted !== valid) throw new Error(`${accepted} accepted, ${valid} expected`);
  return (used.user + used.system) / items.length;
}

/** CPU microseconds per transfer for SignatureCache.checkAll over transfers it has not seen. */
function cpuPerTransfer(transfers: readonly { tx: Tx; hash: string }[]): number {
  const cache = new SignatureCache();
  const start = process.cpuUsage();
  const failures = cache.checkAll(transfers, CHAIN_ID).filter((f) => f !== null);
  const used = process.cpuUsage(start);
  if (failures.length > 0) throw new Error(`${failures.length} transfers refused: ${failures[0]!.message}`);
  return (used.user + used.system) / transfers.length;
}

const samples = new Map<string, number[]>();
const record = (column: string, us: number) => samples.set(column, [...(samples.get(column) ?? []), us]);
const m = (column: string) => median(samples.get(column)!);

// Warm-up: noble's table of G, the JIT, the known keys into the verifiers' caches.
for (const verifier of VERIFIERS) {
  useVerifier(verifier);
  verifyDigestBatch(knownKeys.map((k, i) => item(k, `warm ${i}`)));
  for (let i = 0; i < 300; i++) cpuPerSignature([item(validatorKey, `warm ${i}`)], -1);
}

for (let round = 0; round < ROUNDS; round++) {
  const known = knownKeys.map((k, i) => item(k, `round ${round} tx ${i}`));
  const votes = Array.from({ length: SIGNATURES }, (_v, i) => item(validatorKey, `round ${round} vote ${i}`));
  const transfers = knownKeys.map((k, i) => transfer(k, knownKeys[(i + 1) % SIGNATURES]!, round));
  const tasks: (() => void)[] = [];
  for (const verifier of VERIFIERS) {
    const run = (column: string, measure: () => number) =>
      tasks.push(() => {
        useVerifier(verifier);
        record(`${verifier.name} ${column}`, measure());
      });
    run('single', () => cpuPerSignature(known, 0));
    run('validator', () => cpuPerSignature(votes, -1));
    run('transfer', () => cpuPerTransfer(transfers));
    for (const size of SIZES) {
      run(`known ${size}`, () => cpuPerSignature(known, size));
      // Built outside the timed part: new keys cost a key derivation and a signature each.
      const fromNewKeys = Array.from({ length: SIGNATURES }, (_v, i) => item(newKey(), `new ${round} ${i}`));
      run(`new ${size}`, () => cpuPerSignature(fromNewKeys, size));
      const oneBad = known.map((x, i) => (i % size === size >> 1 ? forged(x) : x));
      const bad = Math.ceil(SIGNATURES / size);
      run(`bad ${size}`, () => cpuPerSignature(oneBad, size, SIGNATURES - bad));
    }
  }
  const shift = (round * 5) % tasks.length;
  for (const task of [...tasks.slice(shift), ...tasks.slice(0, shift)]) task();
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
}

const f = (x: number) => x.toFixed(x < 100 ? 1 : 0);
const r = (x: number) => `${x.toFixed(1)}x`;
console.log(
  `Node ${process.version}, ${ROUNDS} rounds of ${SIGNATURES} signatures per column, median CPU µs per signature`,
);
console.log('\n| one at a time | noble | native | noble / native |');
console.log('| --- | ---: | ---: | ---: |');
for (const [label, column] of [
  ['verifyDigest (any key)', 'single'],
  ['verifyDigestForKnownKey (a validator)', 'validator'],
  ['per transfer: SignatureCache.checkAll', 'transfer'],
] as const)
  console.log(
    `| ${label} | ${f(m(`noble ${column}`))} | ${f(m(`native ${column}`))} | ${r(m(`noble ${column}`) / m(`native ${column}`))} |`,
  );
console.log(
  '\n| batch size | noble, known keys | native, known keys | noble / native | noble, new keys | native, new keys | noble / native | noble, one bad | native, one bad |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const size of SIZES) {
  const [nk, xk, nn, xn, nb, xb] = ['known', 'new', 'bad'].flatMap((c) => [
    m(`noble ${c} ${size}`),
    m(`native ${c} ${size}`),
  ]);
  console.log(
    `| ${size} | ${f(nk!)} | ${f(xk!)} | ${r(nk! / xk!)} | ${f(nn!)} | ${f(xn!)} | ${r(nn! / xn!)} | ${f(nb!)} | ${f(xb!)} |`,
  );
}

/**
 * Remembers transactions whose signature was verified, so each signature is checked once per
 * node (signature checks are the throughput ceiling: a few hundred to two thousand per second
 * per core in pure JS, about 15,000 with libsecp256k1; docs/BENCHMARKS.md).
 * Keyed by tx_hash alone: it covers the signature (signing bytes || signature), so a copy of a
 * known transaction with any other signature has another hash and is checked on its own.
 * Bounded: the oldest entries are forgotten first.
 *
 * Signatures not yet known are checked together (`checkAll`): batch verification costs less per
 * signature than one check at a time, so admission gathers what arrives in one turn of the event
 * loop and a block's unknown transactions are checked at once before it is executed.
 */
import { type Tx, type TxFailure, txFailure, txSigningDigest } from '../chain/index.js';
import { accountAddressOf } from '../crypto/address.js';
import { type SignedDigest, verifyDigestBatch } from '../crypto/batchVerify.js';
import { installVerifierFromEnvironment } from './verifierChoice.js';

/** A transaction with its hash: txHash(tx, chainId), which covers its signature. */
export interface HashedTx {
  readonly tx: Tx;
  readonly hash: string;
}

/** The failure checkTxSignature gives (chain/tx/signing.ts); a test keeps the two equal. */
const invalidSignature = (chainId: string): TxFailure =>
  txFailure(
    'INVALID_SIGNATURE',
    `invalid signature: not made by pub_key over this transaction for chain ${chainId}`,
  );

export class SignatureCache {
  private readonly verified = new Map<string, true>();
  /** Signatures checked so far (each distinct one once, batched or not): chain_signature_checks_total. */
  checks = 0;

  /**
   * `onChecks(n)`: n more signatures were checked (the node counts them in its metrics). The
   * first cache of a process installs the verifier CHAIN_NODE_VERIFIER asks for and logs it
   * (verifierChoice.ts): a node builds its cache at start.
   */
  constructor(
    private readonly capacity = 200_000,
    private readonly onChecks: (n: number) => void = () => {},
  ) {
    installVerifierFromEnvironment();
  }

  /** Verifies (or recalls) the signature; returns the failure or null. */
  check(tx: Tx, hash: string, chainId: string): TxFailure | null {
    return this.checkAll([{ tx, hash }], chainId)[0]!;
  }

  /**
   * The failure of each item (null: valid), in order. Signatures already verified are recalled;
   * the others are verified in one batch, each distinct hash once even when it appears several
   * times. `hash` must be txHash(tx, chainId): an answer is remembered under it.
   */
  checkAll(items: readonly HashedTx[], chainId: string): (TxFailure | null)[] {
    const out: (TxFailure | null)[] = new Array(items.length).fill(null);
    // hash -> indexes of the items with that hash, for the hashes not yet known.
    const unknown = new Map<string, number[]>();
    for (const [i, { hash }] of items.entries()) {
      if (this.verified.has(hash)) continue;
      const same = unknown.get(hash);
      if (same) same.push(i);
      else unknown.set(hash, [i]);
    }
    if (unknown.size === 0) return out;
    this.checks += unknown.size;
    this.onChecks(unknown.size);
    const batch: SignedDigest[] = [];
    const batchHashes: string[] = [];
    for (const [hash, indexes] of unknown) {
      const { tx } = items[indexes[0]!]!;
      // The address check is cheap and comes first, as in checkTxSignature.
      if (accountAddressOf(tx.pubKey) !== tx.from) {
        const failure = txFailure('PUBKEY_MISMATCH', `from_address ${tx.from} is not the address of pub_key`);
        for (const i of indexes) out[i] = failure;
        continue;
      }
      batch.push({
        digest: txSigningDigest(tx, chainId),
        signatureHex: tx.signature,
        publicKeyHex: tx.pubKey,
      });
      batchHashes.push(hash);
    }
    const valid = batch.length > 0 ? verifyDigestBatch(batch) : [];
    for (const [j, hash] of batchHashes.entries()) {
      if (valid[j] === true) {
        this.remember(hash);
        continue;
      }
      const failure = invalidSignature(chainId);
      for (const i of unknown.get(hash)!) out[i] = failure;
    }
    return out;
  }

  /**
   * A predicate for applyBlock over `items` (a block's transactions): their unknown signatures are
   * verified now, in one batch; the predicate then answers from that batch (a forged signature
   * is not checked a second time) and from memory.
   */
  predicateFor(
    items: readonly HashedTx[],
    chainId: string,
  ): (tx: Tx, hash: string, chainId: string) => boolean {
    const failures = this.checkAll(items, chainId);
    const refused = new Set<string>();
    for (const [i, f] of failures.entries()) if (f !== null) refused.add(items[i]!.hash);
    return (tx, hash, id) => !refused.has(hash) && this.isValid(tx, hash, id);
  }

  /** The predicate applyBlock takes. */
  readonly isValid = (tx: Tx, hash: string, chainId: string): boolean =>
    this.check(tx, hash, chainId) === null;

  private remember(hash: string): void {
    this.verified.set(hash, true);
    if (this.verified.size > this.capacity) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
  }
}

/**
 * The simulation's signature checks: the process's own verifier (the one CHAIN_NODE_VERIFIER
 * chooses, as every node's), each recovery remembered for the next node that asks. A recovery is
 * a pure function of the digest and the signature, and every node of a simulated network checks
 * the same votes: a real network pays each recovery once per machine, in parallel, where one
 * process would pay it once per node, in series (at 21 validators, 23 % of the run's time before
 * this; docs/BENCHMARKS.md, "The simulation at scale"). The answers are the verifier's own, so
 * nothing a node decides changes: only how often the curve is computed.
 */
import { currentVerifier, useVerifier } from '../crypto/activeVerifier.js';
import { recoversTo, type Verifier } from '../crypto/verifier.js';
import { installVerifierFromEnvironment } from '../mempool/verifierChoice.js';

/** Recoveries remembered; the oldest forgotten past it (a 200-validator height is ~1,000 signatures). */
const REMEMBERED = 100_000;

const SHARED = Symbol('shared');

type Shared = Verifier & { readonly [SHARED]: true };

function keyOf(digest: Uint8Array, signature: Uint8Array): string {
  return Buffer.from(digest).toString('latin1') + Buffer.from(signature).toString('latin1');
}

export function sharedVerifier(inner: Verifier): Verifier {
  const recovered = new Map<string, Uint8Array | null>();
  const recover: Verifier['recover'] = (s) => {
    const key = keyOf(s.digest, s.signature);
    const known = recovered.get(key);
    if (known !== undefined) return known;
    const key33 = inner.recover(s);
    recovered.set(key, key33);
    if (recovered.size > REMEMBERED) recovered.delete(recovered.keys().next().value!);
    return key33;
  };
  const verifyKnownKey: Verifier['verifyKnownKey'] = (item) => recoversTo(recover, item);
  const shared: Shared = {
    ...inner,
    recover,
    verifyKnownKey,
    verifyBatch: (items) => items.map(verifyKnownKey),
    [SHARED]: true,
  };
  return shared;
}

/** Installs the shared verifier over the process's chosen one, once (later calls keep it). */
export function useSharedVerifier(): void {
  installVerifierFromEnvironment();
  const current = currentVerifier();
  if (!(SHARED in current)) useVerifier(sharedVerifier(current));
}

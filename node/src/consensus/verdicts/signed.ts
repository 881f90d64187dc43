/**
 * The check every signed consensus message gets, against the active set of its height:
 * [REJECT] a sender that is no validator of that set; [REJECT] a signature that is not the
 * sender's over the message's sign bytes. Each message is verified once: `memo` covers the whole
 * signed content and the signature, so a known one is accepted without verifying again, and the
 * same signature on other content is verified (and fails).
 */
import type { Validator } from '../../chain/index.js';
import { ACCEPT, reject } from './verdict.js';

export interface SignedContext {
  readonly chainId: string;
  /** The active set of the message's height. */
  readonly validators: readonly Validator[];
  /** Whether a message of this memo has been verified already. */
  known(memo: string): boolean;
}

/** The verdict; an accepted message carries its signer, and whether it was verified just now. */
export type SignedVerdict =
  | (typeof ACCEPT & { readonly signer: Validator; readonly fresh: boolean })
  | ReturnType<typeof reject>;

export function checkSigned(
  sender: string,
  memo: string,
  verify: (pubKey: string) => boolean,
  ctx: SignedContext,
): SignedVerdict {
  const signer = ctx.validators.find((v) => v.address === sender);
  if (signer === undefined) return reject('unknown-validator');
  if (ctx.known(memo)) return { ...ACCEPT, signer, fresh: false };
  if (!verify(signer.pubKey)) return reject('bad-signature');
  return { ...ACCEPT, signer, fresh: true };
}

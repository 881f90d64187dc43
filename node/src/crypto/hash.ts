/** SHA-256, the only hash of the protocol (docs/PROTOCOL.md). Thin over @noble/hashes. */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

/** SHA-256 over bytes given in pieces (a snapshot's content as it is inflated). */
export interface Sha256Stream {
  update(data: Uint8Array): void;
  digest(): Uint8Array;
}

export function sha256Stream(): Sha256Stream {
  const h = nobleSha256.create();
  return {
    update: (data) => {
      h.update(data);
    },
    digest: () => h.digest(),
  };
}

const utf8 = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array {
  return utf8.encode(text);
}

/**
 * @noble/secp256k1 v3's synchronous API needs its hash functions supplied once.
 * RFC 6979 deterministic nonces use HMAC-SHA-256, so signing needs no randomness.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import * as secp from '@noble/secp256k1';

secp.hashes.sha256 = sha256;
secp.hashes.hmacSha256 = (key: Uint8Array, message: Uint8Array) => hmac(sha256, key, message);

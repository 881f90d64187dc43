/** secp256k1 key sizes: private keys are 32 bytes, public keys travel compressed (33 bytes). */
export const PRIVATE_KEY_BYTES = 32;
export const PUBLIC_KEY_BYTES = 33;

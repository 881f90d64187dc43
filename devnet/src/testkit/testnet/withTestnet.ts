/** A testnet for the length of one body (testnet.ts): started, handed to it, and stopped whatever happens. */
import type { StartOptions } from './options.js';
import { Testnet } from './testnet.js';

/**
 * Starts a testnet, runs `body` with it, and stops it whatever happens: the invariants are
 * checked when the body succeeded, the logs kept when anything failed.
 */
export async function withTestnet<T>(o: StartOptions, body: (net: Testnet) => Promise<T>): Promise<T> {
  const net = await Testnet.start(o);
  let result: T;
  try {
    result = await body(net);
  } catch (e) {
    await net.stop({ failed: true });
    throw e;
  }
  await net.stop();
  return result;
}

/** A testnet for the length of one body (testnet.ts, simTestnet.ts): started, handed to it, and stopped whatever happens. */
import type { TestnetBase } from './base.js';
import type { StartOptions } from './options.js';
import { type SimStartOptions, SimTestnet } from './simTestnet.js';
import { Testnet } from './testnet.js';

/**
 * Starts a testnet, runs `body` with it, and stops it whatever happens: the invariants are
 * checked when the body succeeded, the logs kept when anything failed.
 */
export async function withTestnet<T>(o: StartOptions, body: (net: Testnet) => Promise<T>): Promise<T> {
  return runWith(await Testnet.start(o), body);
}

/** withTestnet on the simulation (SimTestnet): the same body, in virtual time, one run a seed. */
export async function withSimTestnet<T>(
  o: SimStartOptions,
  body: (net: SimTestnet) => Promise<T>,
): Promise<T> {
  return runWith(await SimTestnet.start(o), body);
}

async function runWith<N extends TestnetBase, T>(net: N, body: (net: N) => Promise<T>): Promise<T> {
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

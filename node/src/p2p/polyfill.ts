/**
 * libp2p 2.x calls Promise.withResolvers, built into Node only from 22; on Node 20 it crashes at
 * start (ENVIRONMENT.md). This polyfill must be evaluated before libp2p runs: network.ts and
 * libp2pNode.ts import it first.
 */
interface WithResolvers {
  withResolvers?: <T>() => { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void };
}

const P = Promise as unknown as WithResolvers;
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = <T>() => {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise, resolve, reject };
  };
}

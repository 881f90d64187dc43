/** The JSON-lines logger the node, the market and the devnet's programs write with (`@chain-devnet/kit/log`). */
export * from './logger.js';

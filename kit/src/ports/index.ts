/** Free ports on 127.0.0.1 (`@chain-devnet/kit/ports`): a base whose whole plan is free and held by no living process. */
export * from './ports.js';

/**
 * What every program that drives nodes shares (`@chain-devnet/node/harness`): the bounded
 * polling wait, the free-port finder, and the process spawner (attached programs that end with
 * their starter, and the detached mode for those that outlive it).
 */
export * from './detached.js';
export * from './ports.js';
export * from './programs.js';
export * from './v8Flags.js';
export * from './wait.js';

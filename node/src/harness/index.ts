/**
 * What every program that drives nodes shares (`@chain-devnet/node/harness`): the bounded
 * polling wait, the free-port finder, the process spawner (attached programs that end with
 * their starter, and the detached mode for those that outlive it), and the builder of a git
 * commit of this repository into the build cache (an older build to run nodes of).
 */
export * from './benchArgs.js';
export * from './detached.js';
export * from './fileLock.js';
export * from './gitBuild.js';
export * from './ports.js';
export * from './processIdentity.js';
export * from './programs.js';
export * from './v8Flags.js';
export * from './wait.js';

/**
 * Which chain-node a program runs, and how (`@chain-devnet/node/builds`): a git commit of this
 * repository built once into the build cache (an older build to run nodes of, OLDER_COMMIT the
 * one the tests run), the program of a built checkout, and the V8 flags and environment a node
 * process starts with.
 */
export * from './gitBuild.js';
export * from './v8Flags.js';

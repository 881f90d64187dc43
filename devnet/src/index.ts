/**
 * The devnet as a program drives it from outside (`@chain-devnet/devnet`): the `devnet` command
 * run as a user runs it, the shapes of what it prints with --json, a free base port for a
 * devnet's plan, whether a Docker engine answers, and a swarm of several engines on this machine
 * for tests of the swarm runtime (and a swarm test file's preamble over it, onTestSwarm).
 */

export * from './harness/cli.js';
export * from './harness/docker.js';
export * from './harness/onTestSwarm.js';
export * from './harness/ports.js';
export * from './harness/swarm.js';
export type * from './json/jsonShapes.js';

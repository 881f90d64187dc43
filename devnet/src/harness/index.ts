/**
 * The devnet's test harness (`@chain-devnet/devnet/harness`), for the tests of its runtimes (its
 * own and the e2e suite's): whether a Docker engine answers (and the line that says a test is
 * skipped outside CI when none does), a Docker Swarm of this machine's engine and engines in
 * containers, and a swarm test file's preamble over it (onTestSwarm).
 */
export * from './docker.js';
export * from './onTestSwarm.js';
export * from './swarm.js';

/**
 * The devnet as a program drives it (`@chain-devnet/devnet`): the `devnet` command run as a user
 * runs it (devnetCli, devnetJson: the bundled CLI in its own process), the shapes of what it
 * prints with --json, a free base port for a devnet's whole port plan, its errors' codes, its node
 * operations, and a manifest checked as `devnet up` checks it. Tests in TypeScript go through
 * `@chain-devnet/devnet/testkit`; the devnet's own tests of its runtimes (a Docker engine's check, a
 * swarm of engines in containers on this machine) through `@chain-devnet/devnet/harness`.
 */

export { DevnetError, type DevnetErrorCode } from './base/errors.js';
export * from './harness/cli.js';
export * from './harness/ports.js';
export type * from './json/jsonShapes.js';
export { NODE_OPS, type NodeOp } from './operations/nodeOp.js';
export { checkManifest, type Manifest, requireManifest } from './spec/manifest.js';

/**
 * The node's software version (its build): GET /upgrades' `node_version`, the p2p agent string,
 * the halting and refusal messages. Kept equal to node/package.json's version by a test
 * (tests/unit/util/nodeVersion.test.ts); a constant, so a bundle or an image carries it too.
 */
export const NODE_VERSION = '0.2.0';

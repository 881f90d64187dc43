/** NODE_VERSION (GET /upgrades' node_version, the p2p agent) is node/package.json's version. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { NODE_VERSION } from '../../../src/util/nodeVersion.js';

it('NODE_VERSION is the version of node/package.json', () => {
  // This file runs from node/dist/tests/unit/util/.
  const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  assert.equal(NODE_VERSION, pkg.version);
});

/** Chain parameters (params.ts, checkParams): the bounds a genesis' params must keep. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadGenesis } from '../../../src/chain/index.js';
import { genesisJson } from '../../fixtures.js';

describe('parameter bounds', () => {
  it('refuses unbonding_blocks 0, which could not pay back at completion_height', () => {
    const loaded = loadGenesis(genesisJson({ params: { unbonding_blocks: 0 } }));
    assert.equal(loaded.ok, false);
    if (!loaded.ok)
      assert.ok(loaded.problems.includes('unbonding_blocks must be >= 1'), loaded.problems.join('; '));
  });
});

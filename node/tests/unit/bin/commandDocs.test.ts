/** The docs' usage lines of chain-node and chain-market name only options their commands declare. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { undeclaredOptionsIn } from '@chain-devnet/kit/cli';
import { CHAIN_MARKET } from '../../../src/bin/chain-market/program.js';
import { CHAIN_NODE } from '../../../src/bin/chain-node/program.js';

const doc = (path: string) => readFileSync(new URL(`../../../../../${path}`, import.meta.url), 'utf8');

describe('the command references in the docs', () => {
  for (const [program, files] of [
    [CHAIN_NODE, ['README.md', 'docs/ARCHITECTURE.md', 'docs/CONSENSUS.md']],
    [CHAIN_MARKET, ['README.md', 'docs/MARKET.md']],
  ] as const)
    for (const file of files)
      it(`${file}: every ${program.name} option it names exists`, () => {
        assert.deepEqual(undeclaredOptionsIn(program, doc(file)), []);
      });

  it('finds an option a usage line names that its command does not declare', () => {
    const text =
      '```\nchain-node init --home DIR [--bogus]\n                 [--port 1]\nchain-node --nope\n```\n';
    assert.deepEqual(
      undeclaredOptionsIn(CHAIN_NODE, text).map((p) => p.split(' (')[0]),
      [
        'chain-node init: --bogus is not an option of it',
        'chain-node init: --port is not an option of it',
        'chain-node start: --nope is not an option of it',
      ],
    );
  });
});

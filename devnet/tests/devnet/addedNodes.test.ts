/**
 * The name of a node added to a devnet (devnet/addedNodes.ts, `devnet add --name`): refused when
 * a node or account has it, when it already means something where node names go (every node, the
 * devnet's own log on the timeline, the market's services), or is not a name; else recorded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DevnetError } from '../../src/base/errors.js';
import { RESERVED_NAMES } from '../../src/base/names.js';
import { withAddedNode } from '../../src/devnet/addedNodes.js';
import { MARKET_SERVICE, WORKER_SERVICE } from '../../src/operations/market.js';
import type { NetworkSpec, NodeSpec } from '../../src/spec/networkSpec.js';
import type { DevnetState } from '../../src/state/devnetState.js';

const state = { added: [] } as unknown as DevnetState;
const spec = { accounts: [{ name: 'account-0' }] } as unknown as NetworkSpec;
const nodes = [{ name: 'validator-0' }, { name: 'validator-1' }] as NodeSpec[];
const add = (name: string | undefined) => withAddedNode(state, spec, nodes, name, { stake: null });
const refused = (name: string, why: RegExp) =>
  assert.throws(
    () => add(name),
    (e: Error) => e instanceof DevnetError && e.code === 'BAD_FLAG' && why.test(e.message),
  );

describe('the name of an added node', () => {
  it('is validator-INDEX by default, or the one given', () => {
    assert.equal(add(undefined).name, 'validator-2');
    assert.deepEqual(add('late').state.added, [{ name: 'late', index: 2, stake: null }]);
  });

  it('is refused when taken, reserved or not a name', () => {
    refused('validator-1', /--name validator-1: that name is taken in this devnet/);
    refused('account-0', /that name is taken/);
    refused('all', /--name all: that word means every node/);
    refused('devnet', /--name devnet: it names the devnet's own log on its timeline/);
    refused('market-worker', /--name market-worker: it names the task market's worker/);
    refused('Late', /use lowercase letters, digits and dashes/);
    // The services' names as the market declares them.
    for (const service of [MARKET_SERVICE, WORKER_SERVICE])
      assert.ok(RESERVED_NAMES[service] !== undefined, service);
  });
});

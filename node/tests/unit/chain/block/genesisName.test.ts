/**
 * The state names its genesis from protocol 1.2.0 on (chain/block/genesisName.ts; docs/RULES.md,
 * "The state names its genesis"): block 1 of a chain born at 1.2.0 writes the entry `c/` with the
 * hash of block 0, the migration 1.1.0 -> 1.2.0 writes it at the plan's height, and below 1.2.0
 * the state holds no such entry (its roots are those of before). Two chains of one seed and chain
 * id but another genesis time (sister devnets) have the same state roots below 1.2.0, and
 * different ones from it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeSnapshot,
  encodeSnapshot,
  loadGenesis,
  MIGRATIONS,
  stateDiff,
  stateEntries,
  stateRoot,
} from '../../../../src/chain/index.js';
import { GENESIS_TIME, type GenesisOptions, genesisJson, TestChain } from '../../../fixtures.js';

const genesisHashOf = (o: GenesisOptions, time = GENESIS_TIME) => {
  const loaded = loadGenesis({ ...genesisJson(o), genesis_time: time });
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.genesis;
};

/** A chain of `o` whose genesis time is `time` (a sister of the fixtures' chain when it differs). */
function chainAt(o: GenesisOptions, time = GENESIS_TIME) {
  return new TestChain(genesisHashOf(o, time).state, MIGRATIONS, o.validators ?? ['val-0']);
}

const keysOf = (c: TestChain) => stateEntries(c.state).map((e) => e.key);

describe('the state names its genesis (protocol 1.2.0)', () => {
  it('block 1 of a chain born at 1.2.0 names block 0; the genesis state names nothing', () => {
    const genesis = genesisHashOf({ protocolVersion: '1.2.0' });
    const c = chainAt({ protocolVersion: '1.2.0' });
    assert.equal(c.state.genesisHash, null, 'height 0: block 0 covers this state, it cannot name it');
    assert.ok(!keysOf(c).includes('c/'));
    c.produce();
    assert.equal(c.state.genesisHash, genesis.hash);
    assert.equal(c.blocks[0]!.header.prevHash, genesis.hash);
    const entry = stateEntries(c.state).find((e) => e.key === 'c/');
    assert.equal(
      Buffer.from(entry?.value ?? []).toString('hex'),
      genesis.hash,
      'c/ holds the 32 bytes of the hash',
    );
    c.produceUntil(5);
    assert.equal(c.state.genesisHash, genesis.hash, 'kept by every later block');
  });

  it('below 1.2.0 no state names it, and its root is as before', () => {
    for (const protocolVersion of ['1.0.0', '1.1.0']) {
      const c = chainAt({ protocolVersion });
      c.produceUntil(4);
      assert.equal(c.state.genesisHash, null, protocolVersion);
      assert.ok(!keysOf(c).includes('c/'), protocolVersion);
    }
  });

  it('sister chains (one seed and chain id, another genesis time) share their roots below 1.2.0, not from it', () => {
    const later = GENESIS_TIME + 3600;
    for (const [protocolVersion, same] of [
      ['1.0.0', true],
      ['1.2.0', false],
    ] as const) {
      const a = chainAt({ protocolVersion });
      const b = chainAt({ protocolVersion }, later);
      a.produceUntil(3);
      b.produceUntil(3);
      assert.notEqual(a.genesisHash, b.genesisHash, 'two genesis documents');
      assert.equal(stateRoot(a.state) === stateRoot(b.state), same, `${protocolVersion}: roots equal`);
    }
  });

  it('the migration 1.1.0 -> 1.2.0 names the genesis at the plan’s height, from the hash it is given', () => {
    const o: GenesisOptions = {
      upgrades: [
        { target_version: '1.1.0', upgrade_height: 2 },
        { target_version: '1.2.0', upgrade_height: 4 },
      ],
    };
    const c = chainAt(o);
    c.produceUntil(3);
    assert.deepEqual([c.state.protocolVersion, c.state.genesisHash], ['1.1.0', null]);
    const before = c.state;
    c.produce();
    assert.deepEqual([c.state.protocolVersion, c.state.genesisHash], ['1.2.0', genesisHashOf(o).hash]);
    assert.ok(
      stateDiff(before, c.state).put.some((e) => e.key === 'c/'),
      'the store writes the new entry with the block',
    );
  });

  it('a migration to 1.2.0 without the genesis hash stops the rules instead of guessing', () => {
    const o: GenesisOptions = {
      protocolVersion: '1.1.0',
      upgrades: [{ target_version: '1.2.0', upgrade_height: 2 }],
    };
    const c = new TestChain({ ...genesisHashOf(o).state, height: 1, genesisHash: null }, MIGRATIONS, [
      'val-0',
    ]);
    assert.throws(() => c.produce(), /internal: a migration to 1\.2\.0 needs the chain's genesis hash/);
  });

  it('a snapshot carries the entry: decoded, the state names the same genesis and has the same root', () => {
    const c = chainAt({ protocolVersion: '1.2.0' });
    c.produceUntil(3);
    const { info, file } = encodeSnapshot(c.state);
    const { state } = decodeSnapshot(file, info.hash);
    assert.equal(state.genesisHash, c.state.genesisHash);
    assert.equal(stateRoot(state), stateRoot(c.state));
  });
});

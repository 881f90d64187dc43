/**
 * Versions and halting (chain/block/compatibility.ts): the versions a registry runs, the halt
 * before the block of a plan a binary has no migration for (and only then), and the refusal to
 * run a state of a version the binary does not know, too old or a downgrade, naming both versions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BASE_PROTOCOL_VERSION,
  describeHalt,
  type Migration,
  supportedVersions,
  UPGRADE_HALT_EXIT_CODE,
  upgradeHaltAt,
  VERSION_REFUSED_EXIT_CODE,
  versionRefusal,
} from '../../../../src/chain/index.js';
import { TestChain } from '../../../fixtures.js';

const toMinor: Migration = { from: '1.0.0', to: '1.1.0', migrate: () => undefined };
const plan = { target_version: '1.1.0', upgrade_height: 5 };

describe('versions a binary runs', () => {
  it('the base version and every version its migrations reach from it', () => {
    assert.equal(BASE_PROTOCOL_VERSION, '1.0.0');
    assert.deepEqual(supportedVersions([]), ['1.0.0']);
    assert.deepEqual(
      supportedVersions([toMinor, { from: '1.1.0', to: '1.10.0', migrate: () => undefined }]),
      ['1.0.0', '1.1.0', '1.10.0'],
    );
    // A migration from a version it cannot reach runs nothing.
    assert.deepEqual(supportedVersions([{ from: '3.0.0', to: '3.1.0', migrate: () => undefined }]), [
      '1.0.0',
    ]);
  });

  it('the exit codes are distinct and not 1 or 2 (failure, usage)', () => {
    assert.deepEqual(new Set([UPGRADE_HALT_EXIT_CODE, VERSION_REFUSED_EXIT_CODE, 1, 2]).size, 4);
  });
});

describe('the halt at a plan’s height', () => {
  it('is due exactly before the plan’s block, for a binary without the migration path, and never for one with it', () => {
    const old = new TestChain({ upgrades: [plan] }, []);
    old.produceUntil(3);
    assert.equal(upgradeHaltAt(old.state, []), null, 'not before the height');
    old.produce();
    const halt = upgradeHaltAt(old.state, []);
    assert.deepEqual(halt, {
      height: 5,
      plan: { targetVersion: '1.1.0', upgradeHeight: 5 },
      current: '1.0.0',
    });
    assert.equal(upgradeHaltAt(old.state, [toMinor]), null);
    assert.match(
      describeHalt(halt!, '0.1.0'),
      /^UPGRADE NEEDED: plan 1\.1\.0 at height 5: the chain is at protocol version 1\.0\.0 and needs 1\.1\.0, which this node \(version 0\.1\.0\) has no migration for: halted before signing anything at height 5/,
    );
    // The old binary's rules refuse the block itself too: it can never apply it and diverge.
    assert.throws(() => old.produce(), /no migration for it/);
  });

  it('a new-version binary runs the old version until the height, and the migration at exactly that height', () => {
    const seen: number[] = [];
    const migration: Migration = { ...toMinor, migrate: (d) => seen.push(d.base.height + 1) };
    const c = new TestChain({ upgrades: [plan] }, [migration]);
    c.produceUntil(4);
    assert.equal(c.state.protocolVersion, '1.0.0');
    assert.deepEqual(seen, []);
    const r = c.produce();
    assert.equal(r.upgradedTo, '1.1.0');
    assert.equal(c.state.protocolVersion, '1.1.0');
    // Once by the proposer's buildBlock and once by applyBlock's check: each at height 5.
    assert.deepEqual(seen, [5, 5]);
    c.produceUntil(8);
    assert.deepEqual(seen, [5, 5]);
  });
});

describe('the refusal to start', () => {
  it('a state of a version the binary does not run: a downgrade past an applied upgrade, naming both versions', () => {
    const c = new TestChain({ upgrades: [plan] }, [toMinor]);
    c.produceUntil(6);
    assert.equal(versionRefusal(c.state, [toMinor], '0.2.0'), null);
    assert.equal(
      versionRefusal(c.state, [], '0.1.0'),
      'a downgrade past the upgrade to 1.1.0 applied at height 5 is refused: the stored state is at protocol version 1.1.0, ' +
        'and this node (version 0.1.0) runs protocol versions 1.0.0 (newest 1.0.0): run a version that supports 1.1.0',
    );
  });

  it('a chain whose version is above anything the binary runs: too old', () => {
    const c = new TestChain({}, []);
    const state = { ...c.state, protocolVersion: '2.0.0' };
    assert.match(
      versionRefusal(state, [toMinor], '0.2.0') ?? '',
      /^this node is too old for the chain: the stored state is at protocol version 2\.0\.0, and this node \(version 0\.2\.0\) runs protocol versions 1\.0\.0, 1\.1\.0 \(newest 1\.1\.0\)/,
    );
  });
});

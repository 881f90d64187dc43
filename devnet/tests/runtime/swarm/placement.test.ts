/** Where the swarm runtime runs a node: as the manifest places it, else round robin over the machines that can. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DevnetError } from '../../../src/base/errors.js';
import { chooseMachine } from '../../../src/runtime/swarm/placement.js';
import type { Machine } from '../../../src/runtime/swarm/swarmEngines.js';

const machine = (name: string, o: Partial<Machine> = {}): Machine => ({
  id: `id-${name}`,
  name,
  ready: true,
  manager: false,
  local: false,
  host: `10.0.0.${name.length}`,
  engine: null,
  ...o,
});

const m0 = machine('manager', { local: true, manager: true, engine: 'manager' });
const w1 = machine('w1');
const w2 = machine('w2');
const down = machine('w3', { ready: false });
const all = [m0, w1, w2, down];
const usable = [m0, w1, w2];

test('round robin by node index over the usable machines, the manager first', () => {
  const placed = [0, 1, 2, 3, 4, 5].map(
    (index) => chooseMachine({ index, name: `validator-${index}`, asked: null }, all, usable, new Map()).name,
  );
  assert.deepEqual(placed, ['manager', 'w1', 'w2', 'manager', 'w1', 'w2']);
});

test('the manifest places a node by machine name or id', () => {
  assert.equal(chooseMachine({ index: 0, name: 'a', asked: 'w2' }, all, usable, new Map()), w2);
  assert.equal(chooseMachine({ index: 0, name: 'a', asked: 'id-w1' }, all, usable, new Map()), w1);
});

test('a placement on no machine, or on one that cannot run nodes, says which and why', () => {
  assert.throws(
    () => chooseMachine({ index: 0, name: 'alice', asked: 'w9' }, all, usable, new Map()),
    (e: unknown) =>
      e instanceof DevnetError &&
      e.code === 'BAD_MANIFEST' &&
      e.message === 'alice: placement w9 is no machine of this swarm (machines: manager, w1, w2, w3)',
  );
  assert.throws(
    () =>
      chooseMachine(
        { index: 0, name: 'alice', asked: 'w3' },
        all,
        usable,
        new Map([['id-w3', 'it is not ready']]),
      ),
    /alice: placement w3 cannot run it: it is not ready/,
  );
});

test('no usable machine at all: every reason is given', () => {
  assert.throws(
    () =>
      chooseMachine(
        { index: 0, name: 'bob', asked: null },
        all,
        [],
        new Map([['id-w1', 'no engine address']]),
      ),
    /bob: no machine of the swarm can run a node \(w1: no engine address\)/,
  );
});

/**
 * Every kind of assertion of the testkit, against fake nodes (fakeNodes.ts): it holds when the
 * nodes say so, and when one node says otherwise it fails with a TestkitError that names the
 * step, that node, its height, what was expected and what was found.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Expectations, TestkitError, TestkitUsageError } from '../../src/testkit/index.js';
import { type FakeNet, fakeNet } from './fakeNodes.js';

const COIN = 10n ** 18n;

/** Runs `f`, which must fail with a TestkitError; returns it. */
async function failure(f: () => Promise<unknown>): Promise<TestkitError> {
  try {
    await f();
  } catch (e) {
    if (e instanceof TestkitError) return e;
    throw e;
  }
  assert.fail('expected a TestkitError, and it held');
}

function named(e: TestkitError, step: string, node: string, height: number | null): void {
  assert.equal(e.step, step, e.message);
  assert.equal(e.node, node, e.message);
  assert.equal(e.height, height, e.message);
  assert.ok(
    e.message.startsWith(
      `step "${step}": ${node} ${height === null ? '(height unknown: not answering)' : `at height ${height}`}: expected `,
    ),
    e.message,
  );
}

describe('testkit assertions', () => {
  let f: FakeNet;
  let expect: Expectations;
  const quick = { seconds: 0.3 };

  before(async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    expect = new Expectations(f.net);
  });
  after(() => f.close());
  afterEach(async () => {
    await f.close();
    f = await fakeNet({ validators: 3, height: 12 });
    expect = new Expectations(f.net);
  });

  it('height: holds at or below every node; fails naming the node below, its height, the bound', async () => {
    assert.deepEqual([...(await expect.height({ atLeast: 12, within: quick })).values()], [12, 12, 12]);
    f.net.step = 'reach 12';
    f.node('validator-1').height = 10;
    const e = await failure(() => expect.height({ atLeast: 12, within: quick }));
    named(e, 'reach 12', 'validator-1', 10);
    assert.equal(e.expected, 'height 12 or above within 0.3 s');
    assert.equal(e.found, 'height 10');
  });

  it('synced: fails naming the node behind and the highest; a node that does not answer is named', async () => {
    assert.equal(await expect.synced({ within: quick }), 12);
    f.net.step = 'synced';
    f.node('validator-2').height = 8;
    const e = await failure(() => expect.synced({ within: quick }));
    named(e, 'synced', 'validator-2', 8);
    assert.match(e.found, /height 8, while validator-0 is at 12/);
    f.node('validator-2').height = 12;
    f.node('validator-0').down = true;
    const silent = await failure(() => expect.synced({ within: quick }));
    named(silent, 'synced', 'validator-0', null);
    assert.equal(silent.found, 'no answer');
  });

  it('stalled: holds while no height moves; fails at once naming the node that moved and the heights; a node silent throughout is named', async () => {
    // Nodes at different heights (one behind) that hold them: stalled, each at its own.
    for (const n of f.nodes) n.height = 10;
    f.node('validator-2').height = 9;
    assert.deepEqual(Object.fromEntries(await expect.stalled({ seconds: 0.5 })), {
      'validator-0': 10,
      'validator-1': 10,
      'validator-2': 9,
    });

    f.net.step = 'no quorum';
    const moving = setTimeout(() => {
      f.node('validator-1').height = 11; // a block decided after all
    }, 300);
    const started = Date.now();
    const e = await failure(() => expect.stalled({ seconds: 5 }));
    clearTimeout(moving);
    assert.ok(Date.now() - started < 4_000, 'it fails when the height moves, not at the end of the window');
    named(e, 'no quorum', 'validator-1', 11);
    assert.equal(e.expected, 'no new block on validator-0, validator-1, validator-2 for 5 s (no progress)');
    assert.match(
      e.found,
      /^height 10 then 11 after \d+\.\d s \(validator-0 10→10, validator-1 10→11, validator-2 9→9\)$/,
    );

    // A node behind that catches up a block is a height that moved, too.
    f.node('validator-1').height = 10;
    setTimeout(() => {
      f.node('validator-2').height = 10;
    }, 300);
    named(await failure(() => expect.stalled({ seconds: 2 })), 'no quorum', 'validator-2', 10);

    // Within a bound, heights may still move (a block already voted when the partition came);
    // the window starts again at the last move. After the bound, a move fails.
    for (const n of f.nodes) n.height = 10;
    setTimeout(() => {
      f.node('validator-0').height = 11;
    }, 300);
    assert.deepEqual(Object.fromEntries(await expect.stalled({ seconds: 0.5, within: { seconds: 1 } })), {
      'validator-0': 11,
      'validator-1': 10,
      'validator-2': 10,
    });
    setTimeout(() => {
      f.node('validator-1').height = 11;
    }, 700);
    const late = await failure(() => expect.stalled({ seconds: 2, within: { seconds: 0.3 } }));
    named(late, 'no quorum', 'validator-1', 11);
    assert.equal(
      late.expected,
      'no new block on validator-0, validator-1, validator-2 for 2 s (no progress), starting within 0.3 s',
    );

    // Only the named nodes are read; one that never answers cannot be said to have held.
    f.node('validator-0').down = true;
    f.node('validator-2').height = 12;
    const silent = await failure(() =>
      expect.stalled({ seconds: 0.5, nodes: ['validator-0', 'validator-1'] }),
    );
    named(silent, 'no quorum', 'validator-0', null);
    assert.equal(silent.found, 'no answer for 0.5 s');
    await assert.rejects(expect.stalled({ seconds: 0 }), TestkitUsageError);
    await assert.rejects(expect.stalled({ seconds: 1, nodes: ['validator-9'] }), TestkitUsageError);
  });

  it('tx confirmed: at one height in the block on every node, recorded in the ledger', async () => {
    const { hash, height } = f.chain.tx;
    const rs = await expect.tx({ hash, status: 'confirmed', within: quick });
    assert.deepEqual(
      [...rs.values()].map((r) => r.block_height),
      [height, height, height],
    );
    assert.deepEqual(
      f.net.ledger.all().map((c) => [c.hash, c.height]),
      [[hash, height]],
    );
  });

  it('tx confirmed fails: unknown on one node; failed on one (at once); another height; not in the block', async () => {
    const { hash } = f.chain.tx;
    f.net.step = 'transfer confirmed';
    const receipt = f.node('validator-0').receipts.get(hash)!;
    f.node('validator-1').receipts.delete(hash);
    const unknown = await failure(() => expect.tx({ hash, status: 'confirmed', within: quick }));
    named(unknown, 'transfer confirmed', 'validator-1', 12);
    assert.equal(unknown.found, 'unknown (404)');
    assert.equal(unknown.expected, `transaction ${hash} confirmed within 0.3 s`);

    f.node('validator-1').receipts.set(hash, {
      ...receipt,
      status: 'failed',
      block_height: 4,
      error: 'insufficient balance',
    });
    const t0 = Date.now();
    const failed = await failure(() => expect.tx({ hash, status: 'confirmed', within: { seconds: 30 } }));
    assert.ok(Date.now() - t0 < 5_000, 'a failed transaction ends the wait at once');
    named(failed, 'transfer confirmed', 'validator-1', 12);
    assert.equal(failed.found, 'failed at 4 (insufficient balance)');

    f.node('validator-1').receipts.set(hash, receipt);
    f.node('validator-2').receipts.set(hash, { ...receipt, block_height: 5 });
    const elsewhere = await failure(() => expect.tx({ hash, status: 'confirmed', within: quick }));
    named(elsewhere, 'transfer confirmed', 'validator-2', 5);
    assert.equal(elsewhere.found, 'confirmed at 5');

    for (const n of f.nodes) n.receipts.set(hash, { ...receipt, block_height: 3 });
    const missing = await failure(() => expect.tx({ hash, status: 'confirmed', within: quick }));
    named(missing, 'transfer confirmed', 'validator-0', 3);
    assert.match(missing.expected, /block 3 holds/);
  });

  it('tx received, pending and failed (with its error)', async () => {
    const { hash } = f.chain.tx;
    const receipt = f.node('validator-0').receipts.get(hash)!;
    for (const n of f.nodes) n.receipts.set(hash, { ...receipt, status: 'pending', block_height: null });
    await expect.tx({ hash, status: 'received', within: quick });
    await expect.tx({ hash, status: 'pending', within: quick });
    f.net.step = 'rejected in the block';
    for (const n of f.nodes)
      n.receipts.set(hash, { ...receipt, status: 'failed', error: 'bad nonce: expected 1' });
    await expect.tx({ hash, status: 'failed', error: 'bad nonce', within: quick });
    const other = await failure(() =>
      expect.tx({ hash, status: 'failed', error: 'insufficient', within: quick }),
    );
    named(other, 'rejected in the block', 'validator-0', 12);
    assert.equal(other.found, 'failed at 4 (bad nonce: expected 1)');
    await assert.rejects(
      expect.tx({ hash, status: 'done' as 'confirmed', within: quick }),
      TestkitUsageError,
    );
  });

  it('account: balance exact or bounded and nonce; fails naming the node, the height of the read, what it has', async () => {
    const address = f.chain.network.accounts[1]!.key.address;
    for (const n of f.nodes) n.balances.set(address, { balance: 2n * COIN, nonce: 3 });
    await expect.account({ account: 'account-1', balance: '2coin', nonce: 3, within: quick });
    await expect.account({ account: address, atLeast: '1.5coin', atMost: 2n * COIN, within: quick });
    f.net.step = 'paid';
    f.node('validator-2').balances.set(address, { balance: COIN, nonce: 3 });
    const e = await failure(() => expect.account({ account: 'account-1', balance: '2coin', within: quick }));
    named(e, 'paid', 'validator-2', 12);
    assert.equal(e.expected, 'account-1 with balance 2000000000000000000 wei within 0.3 s');
    assert.equal(e.found, 'balance 1000000000000000000 wei, nonce 3');
    const nonce = await failure(() => expect.account({ account: 'account-1', nonce: 4, within: quick }));
    named(nonce, 'paid', 'validator-0', 12);
    assert.equal(nonce.found, 'balance 2000000000000000000 wei, nonce 3');
    await assert.rejects(expect.account({ account: 'account-1', within: quick }), TestkitUsageError);
    await assert.rejects(expect.account({ account: 'nobody', nonce: 0, within: quick }), TestkitUsageError);
  });

  it('validator: status, jail count, power; fails naming the node that lists it otherwise', async () => {
    await expect.validator({ validator: 'validator-1', status: 'ACTIVE', jailCount: 0, within: quick });
    f.net.step = 'jailed';
    const v2 = f.node('validator-2');
    v2.validators = v2.validators.map((v) =>
      v.name === 'validator-1'
        ? { ...v, status: 'JAILED', is_jailed: true, is_active: false, jail_count: 1 }
        : v,
    );
    const e = await failure(() =>
      expect.validator({ validator: 'validator-1', status: 'ACTIVE', within: quick }),
    );
    named(e, 'jailed', 'validator-2', 12);
    assert.match(e.found, /^status JAILED, jail_count 1, power \d+ wei$/);
    await expect.validator({
      validator: 'validator-1',
      status: 'JAILED',
      nodes: ['validator-2'],
      within: quick,
    });
    const none = await failure(() =>
      expect.validator({ validator: 'ghost', status: 'ACTIVE', within: quick }),
    );
    named(none, 'jailed', 'validator-0', 12);
    assert.equal(none.found, 'no such validator in /validators');
  });

  it('metric: against a number, another metric, another node (plus an offset), labels in any order', async () => {
    for (const n of f.nodes)
      n.metrics =
        '# HELP chain_block_height h\nchain_block_height 12\nchain_mempool_size 3\n' +
        'chain_x{b="2",a="1"} 7\nchain_transactions_total{tx_type="TRANSFER"} 5\n';
    f.node('validator-1').metrics = f
      .node('validator-1')
      .metrics.replace('chain_block_height 12', 'chain_block_height 9');
    await expect.metric({ node: 'validator-0', metric: 'chain_block_height', op: '==', value: 12 });
    await expect.metric({
      node: 'validator-0',
      metric: 'chain_x',
      labels: { a: '1', b: '2' },
      op: '>',
      value: 6,
    });
    await expect.metric({
      node: 'validator-0',
      metric: 'chain_mempool_size',
      op: '<',
      other: { metric: 'chain_block_height' },
    });
    f.net.step = 'metrics';
    const low = await failure(() =>
      expect.metric({ node: 'validator-0', metric: 'chain_block_height', op: '>=', value: 20 }),
    );
    named(low, 'metrics', 'validator-0', 12);
    assert.equal(low.expected, "validator-0's chain_block_height >= 20 within 0 s");
    assert.equal(low.found, '12 >= 20 is false');
    const behind = await failure(() =>
      expect.metric({
        node: 'validator-1',
        metric: 'chain_block_height',
        op: '>=',
        other: { node: 'validator-0' },
        plus: -2,
      }),
    );
    named(behind, 'metrics', 'validator-1', 12);
    assert.equal(
      behind.expected,
      "validator-1's chain_block_height >= validator-0's chain_block_height - 2 within 0 s",
    );
    assert.equal(behind.found, '9 >= 10 is false');
    const absent = await failure(() =>
      expect.metric({ node: 'validator-2', metric: 'chain_nope', op: '==', value: 1 }),
    );
    assert.equal(absent.found, "validator-2's chain_nope absent");
    await assert.rejects(
      expect.metric({ node: 'validator-0', metric: 'x', op: '=~' as '==', value: 1 }),
      TestkitUsageError,
    );
  });

  it('log: contains or matches, counted at least, exactly, at most, since marks', async () => {
    const v0 = f.node('validator-0');
    for (const n of f.nodes) n.log = ['{"msg":"block committed","height":1}', '{"msg":"peer connected"}'];
    v0.log.push('{"level":"warn","msg":"round timeout","round":1}');
    await expect.log({ nodes: ['validator-0'], contains: 'round timeout', within: quick });
    await expect.log({ matches: '"msg":"block committed"', count: { exactly: 1 }, within: quick });
    f.net.step = 'logs';
    const few = await failure(() =>
      expect.log({ nodes: ['validator-0'], contains: 'committed', count: { atLeast: 2 }, within: quick }),
    );
    named(few, 'logs', 'validator-0', 12);
    assert.equal(few.expected, 'at least 2 log lines containing "committed" within 0.3 s');
    assert.equal(few.found, '1 such line, the last: {"msg":"block committed","height":1}');
    v0.log.push('{"level":"warn","msg":"round timeout","round":2}');
    const t0 = Date.now();
    const many = await failure(() =>
      expect.log({
        nodes: ['validator-0'],
        matches: /round timeout/,
        count: { exactly: 1 },
        within: { seconds: 30 },
      }),
    );
    assert.ok(Date.now() - t0 < 5_000, 'too many lines end the wait at once');
    assert.match(many.found, /^2 such lines, the last: .*"round":2/);
    const most = await failure(() =>
      expect.log({ nodes: ['validator-0'], contains: 'warn', count: { atMost: 1 } }),
    );
    assert.match(most.expected, /^at most 1 log line containing "warn" within 0 s$/);
    const marks = { 'validator-0': v0.log.length, 'validator-1': 2, 'validator-2': 2 };
    await expect.log({ contains: 'timeout', since: marks, count: { exactly: 0 } });
    setTimeout(() => v0.log.push('{"msg":"round timeout","round":3}'), 100);
    const later = await expect.log({
      nodes: ['validator-0'],
      contains: 'timeout',
      since: marks,
      within: { seconds: 5 },
    });
    assert.deepEqual(later.get('validator-0'), ['{"msg":"round timeout","round":3}']);
    await assert.rejects(expect.log({ contains: 'a', matches: 'b' }), TestkitUsageError);
    await assert.rejects(expect.log({ contains: 'a', count: { atLeast: 1, atMost: 2 } }), TestkitUsageError);
  });

  it('no log line matching: over the log so far, and watched for a window from now', async () => {
    for (const n of f.nodes) n.log = ['{"msg":"block committed"}'];
    f.node('validator-2').log.push('{"level":"error","msg":"store failed"}');
    f.net.step = 'quiet';
    await expect.noLog({ nodes: ['validator-0', 'validator-1'], matches: '"level":"error"' });
    const e = await failure(() => expect.noLog({ matches: '"level":"error"' }));
    named(e, 'quiet', 'validator-2', 12);
    assert.equal(e.expected, 'no log line matching /"level":"error"/ in the log so far');
    assert.equal(e.found, 'the line {"level":"error","msg":"store failed"}');
    // From now: the old line is not in the window; a new one is.
    const t0 = Date.now();
    await expect.noLog({ matches: '"level":"error"', for: { seconds: 0.4 } });
    assert.ok(Date.now() - t0 >= 400, 'the window is watched to its end');
    setTimeout(() => f.node('validator-1').log.push('{"level":"error","msg":"late"}'), 150);
    const late = await failure(() => expect.noLog({ matches: '"level":"error"', for: { seconds: 3 } }));
    named(late, 'quiet', 'validator-1', 12);
    assert.equal(late.expected, 'no log line matching /"level":"error"/ for 3 s');
  });

  it('bounds given as data are checked; an unknown node fails before any wait', async () => {
    await assert.rejects(expect.height({ atLeast: 1, within: { blocks: -1 } }), TestkitUsageError);
    await assert.rejects(expect.height({ atLeast: 1, within: { minutes: 1 } as never }), TestkitUsageError);
    await assert.rejects(expect.height({ atLeast: 1, nodes: ['validator-9'] }), /no node validator-9/);
  });
});

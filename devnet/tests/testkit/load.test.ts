/**
 * The load generator against fake nodes that take transactions as a chain would (fakeNodes.ts,
 * includeTxs): its report counts what was submitted, received, rejected, confirmed and failed,
 * with the latencies; it goes around a node that does not answer or refuses; every transaction
 * it saw confirmed is in the run's ledger; it is always bounded (a count, a duration, stop()).
 * The load on a real devnet, through a crash, is in testnetSuite.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Load, type LoadReport, percentile, TestkitUsageError } from '../../src/testkit/index.js';
import { type FakeNet, fakeNet, includeTxs } from './fakeNodes.js';

/** Every transaction submitted is decided one way, and the report adds up. */
function addsUp(r: LoadReport): void {
  assert.equal(r.received + r.rejected, r.submitted, JSON.stringify(r));
  assert.equal(r.confirmed + r.failed + r.pending, r.received, JSON.stringify(r));
  assert.equal(
    Object.values(r.confirmedByType).reduce((a, b) => a + b, 0),
    r.confirmed,
    JSON.stringify(r),
  );
}

describe('testkit load generator', { timeout: 30_000 }, () => {
  let f: FakeNet;

  beforeEach(async () => {
    f = await fakeNet({ validators: 3, height: 12 });
    includeTxs(f);
  });
  afterEach(() => f.close());

  it('a count of transfers through a node that does not answer: each confirmed once, in the ledger, latencies', async () => {
    f.node('validator-1').down = true;
    const load = await Load.start(f.net, { count: 10, accounts: ['account-0', 'account-1'] });
    const r = await load.done();
    assert.deepEqual(
      { ...r, latencyMs: null, elapsedMs: null },
      {
        submitted: 10,
        received: 10,
        rejected: 0,
        confirmed: 10,
        failed: 0,
        pending: 0,
        resent: 0,
        latencyMs: null,
        elapsedMs: null,
        confirmedByType: { TRANSFER: 10 },
        reasons: {},
      },
    );
    // Decided 50 ms after it was received: no latency below that, and they are ordered.
    const { p50, p99, max } = r.latencyMs;
    assert.ok(p50! >= 50 && p50! <= p99! && p99! <= max!, JSON.stringify(r.latencyMs));
    // Each account's transactions took consecutive nonces: the chain's count is the load's.
    const sent = new Map<string, number>();
    for (const t of load.confirmed()) sent.set(t.from, (sent.get(t.from) ?? 0) + 1);
    for (const [from, n] of sent) assert.equal(f.node('validator-0').balances.get(from)?.nonce, n);
    assert.equal(
      [...sent.values()].reduce((a, b) => a + b, 0),
      10,
    );
    // Every one is in the ledger the invariants check, at its height.
    const ledger = new Map(f.net.ledger.all().map((c) => [c.hash, c.height]));
    for (const t of load.confirmed()) assert.equal(ledger.get(t.hash), 12, t.hash);
    assert.equal(ledger.size, 10);
  });

  it('a node that refuses passes the transaction to the next; refused by every node, it is rejected with the reason', async () => {
    f.node('validator-0').onTx = () => ({ status: 'rejected', error: 'mempool full (5000 transactions)' });
    const passed = await (await Load.start(f.net, { count: 6, accounts: ['account-0'] })).done();
    addsUp(passed);
    assert.equal(passed.confirmed, 6, JSON.stringify(passed));
    assert.equal(passed.rejected, 0);

    for (const n of f.nodes)
      n.onTx = () => ({ status: 'rejected', error: 'mempool full (5000 transactions)' });
    const refused = await (await Load.start(f.net, { count: 3, accounts: ['account-1'] })).done();
    addsUp(refused);
    assert.equal(refused.submitted, 3);
    assert.equal(refused.rejected, 3);
    assert.equal(refused.confirmed, 0);
    assert.deepEqual(refused.reasons, { 'rejected: mempool full (N transactions)': 3 });
    assert.deepEqual(refused.latencyMs, { p50: null, p99: null, max: null });
  });

  it('a failed transaction leaves its nonce unused: the account signs a new one there, and those sent behind it are included, each counted once', async () => {
    // The second transaction received fails; with 4 in flight, later nonces are already waiting
    // behind it (or refused for the gap) and can only be included once the gap is filled.
    includeTxs(f, { fail: (_tx, k) => (k === 1 ? 'insufficient balance: 12 < 21000' : null) });
    const load = await Load.start(f.net, { count: 8, accounts: ['account-0'], window: 4 });
    const r = await load.done();
    addsUp(r);
    assert.deepEqual(
      { ...r, latencyMs: null, elapsedMs: null, resent: null },
      {
        submitted: 8,
        received: 8,
        rejected: 0,
        confirmed: 7,
        failed: 1,
        pending: 0,
        resent: null,
        latencyMs: null,
        elapsedMs: null,
        confirmedByType: { TRANSFER: 7 },
        reasons: { 'failed: insufficient balance: N < N': 1 },
      },
    );
    assert.equal(f.node('validator-2').balances.get(f.net.accountAddress('account-0'))?.nonce, 7);
    assert.equal(new Set(load.confirmed().map((t) => t.hash)).size, 7);
    assert.equal(f.net.ledger.all().length, 7);
  });

  it('a failed transaction included again after all (a copy sent before its failure was seen) is counted confirmed, once, and in the ledger', async () => {
    // The second transaction fails; the new one signed at its nonce finds it taken by the failed
    // one, included again and confirmed (a copy of it got there first), and is refused.
    includeTxs(f, {
      fail: (_tx, k) => (k === 1 ? 'insufficient balance: 12 < 21000' : null),
      replayFailed: true,
    });
    const load = await Load.start(f.net, { count: 8, accounts: ['account-0'], window: 4 });
    const r = await load.done();
    addsUp(r);
    assert.deepEqual(
      { ...r, latencyMs: null, elapsedMs: null, resent: null },
      {
        submitted: 8,
        received: 7,
        rejected: 1,
        confirmed: 7,
        failed: 0,
        pending: 0,
        resent: null,
        latencyMs: null,
        elapsedMs: null,
        confirmedByType: { TRANSFER: 7 },
        reasons: { 'rejected: nonce N, expected N': 1 },
      },
    );
    // Every confirmed one, the replayed one among them, is in the ledger: 7 nonces taken.
    assert.equal(f.node('validator-2').balances.get(f.net.accountAddress('account-0'))?.nonce, 7);
    assert.equal(new Set(load.confirmed().map((t) => t.hash)).size, 7);
    assert.equal(f.net.ledger.all().length, 7);
  });

  it('transactions its node lost (received, never passed on) are sent again to the next node, in nonce order, before the next one', async () => {
    // validator-0 answers "received" to the second transaction and drops it: the third, refused
    // there for the gap, moves the account to validator-1 with its transactions in flight.
    includeTxs(f, { lose: (_tx, k, node) => node === 'validator-0' && k === 1 });
    const load = await Load.start(f.net, { count: 6, accounts: ['account-0'] });
    const r = await load.done();
    addsUp(r);
    assert.equal(r.confirmed, 6, JSON.stringify(r));
    assert.equal(r.rejected, 0, JSON.stringify(r));
    assert.ok(r.resent >= 1, JSON.stringify(r));
    assert.equal(f.node('validator-1').balances.get(f.net.accountAddress('account-0'))?.nonce, 6);
    assert.equal(f.net.ledger.all().length, 6);
  });

  it('the last transaction, lost by its node with nothing sent after it, is sent again to another node once not decided in 6 blocks', async (t) => {
    // 6 blocks' bound is mostly the room for absent proposers (bounds.ts), which fake nodes never
    // have: a quarter of it keeps this test short.
    const slowdown = process.env.TESTKIT_SLOWDOWN;
    process.env.TESTKIT_SLOWDOWN = '0.25';
    t.after(() => {
      if (slowdown === undefined) delete process.env.TESTKIT_SLOWDOWN;
      else process.env.TESTKIT_SLOWDOWN = slowdown;
    });
    includeTxs(f, { lose: (_tx, k, node) => node === 'validator-0' && k === 2 });
    const load = await Load.start(f.net, { count: 3, accounts: ['account-0'] });
    const r = await load.done();
    addsUp(r);
    assert.deepEqual([r.submitted, r.confirmed, r.pending, r.resent], [3, 3, 0, 1], JSON.stringify(r));
    assert.equal(f.node('validator-1').balances.get(f.net.accountAddress('account-0'))?.nonce, 3);
  });

  it('a node that crashed with transactions it never passed on: the account moves on and sends them again', async () => {
    const crashing = f.node('validator-0');
    includeTxs(f, {
      unsent: (_tx, k, node) => {
        if (node !== 'validator-0' || k < 1) return false;
        if (k === 2) crashing.down = true; // crashed with the second and third
        return true;
      },
    });
    const load = await Load.start(f.net, { count: 6, accounts: ['account-0'] });
    const r = await load.done();
    addsUp(r);
    assert.deepEqual([r.submitted, r.confirmed, r.rejected, r.pending], [6, 6, 0, 0], JSON.stringify(r));
    assert.ok(r.resent >= 2, JSON.stringify(r));
    assert.equal(f.node('validator-1').balances.get(f.net.accountAddress('account-0'))?.nonce, 6);
    assert.equal(new Set(f.net.ledger.all().map((c) => c.hash)).size, 6);
  });

  it('several transactions in flight per account (never more than the window) reach a rate one at a time cannot', async () => {
    // Blocks of 400 ms: one transaction at a time, an account sends at most one per block.
    const windowed = includeTxs(f, { blockMs: 400 });
    const fast = await (
      await Load.start(f.net, { rate: 8, duration: 2, accounts: ['account-0'], window: 8 })
    ).done();
    addsUp(fast);
    assert.ok(fast.submitted >= 12, JSON.stringify(fast));
    assert.equal(fast.pending, 0);
    assert.ok(windowed.mostWaiting() > 1 && windowed.mostWaiting() <= 8, String(windowed.mostWaiting()));

    const single = includeTxs(f, { blockMs: 400 });
    const slow = await (
      await Load.start(f.net, { rate: 8, duration: 2, accounts: ['account-1'], window: 1 })
    ).done();
    addsUp(slow);
    assert.ok(slow.submitted <= 6, JSON.stringify(slow));
    assert.equal(single.mostWaiting(), 1);
  });

  it('a mix of delegations goes to active validators', async () => {
    const load = await Load.start(f.net, { count: 4, accounts: ['account-0'], mix: { DELEGATE: 1 } });
    const r = await load.done();
    assert.deepEqual(r.confirmedByType, { DELEGATE: 4 });
    const active = new Set(f.node('validator-0').validators.map((v) => v.address));
    for (const t of load.confirmed()) assert.ok(active.has(t.to), t.to);
  });

  it('bounded: a rate over a duration sends at most that many; stop() ends it early with nothing in flight', async () => {
    const paced = await (
      await Load.start(f.net, { rate: 4, duration: 1, accounts: ['account-0', 'account-1'] })
    ).done();
    addsUp(paced);
    // 4 a second for a second: the first at once, then one each 250 ms (unpaced, two accounts
    // would send about 20 here).
    assert.ok(paced.submitted >= 2 && paced.submitted <= 5, JSON.stringify(paced));
    assert.ok(paced.elapsedMs >= 1000, String(paced.elapsedMs));

    const long = await Load.start(f.net, { count: 100_000, accounts: ['account-0'] });
    while (long.report().confirmed < 3) await new Promise((r) => setTimeout(r, 20));
    const r = await long.stop();
    addsUp(r);
    assert.ok(r.submitted < 100_000);
    assert.equal(r.pending, 0, 'what was in flight was followed to its outcome');
    assert.equal(r.confirmed, r.submitted);
  });

  it('options that would not bound it, or that it cannot use, are usage errors before anything is sent', async () => {
    for (const [o, why] of [
      [{ accounts: ['account-0'] }, /a duration \(seconds\) or a count/],
      [{ count: 0 }, /count must be an integer from 1/],
      [{ duration: 7200 }, /duration must be a number of seconds from 0 to 3600/],
      [{ count: 1, rate: -1 }, /rate must be a positive number/],
      [{ count: 1, mix: { MINT: 1 } }, /mix takes weights >= 0 of TRANSFER, DELEGATE, UNDELEGATE, got MINT/],
      [{ count: 1, mix: { TRANSFER: 0 }, accounts: ['account-0'] }, /mix has no type with a weight above 0/],
      [{ count: 1, accounts: 0 }, /accounts must be from 1 to 256/],
      [{ count: 1, window: 65 }, /window must be an integer from 1 to 64, got 65/],
      [{ count: 1, accounts: ['nobody'] }, /no funded account nobody \(account-0, account-1\)/],
    ] as const)
      await assert.rejects(
        Load.start(f.net, o as Parameters<typeof Load.start>[1]),
        (e: unknown) => e instanceof TestkitUsageError && why.test(e.message),
        JSON.stringify(o),
      );
    assert.equal(f.net.ledger.all().length, 0);
  });

  it('percentiles are nearest-rank', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(hundred, 50), 50);
    assert.equal(percentile(hundred, 99), 99);
    assert.equal(percentile([7], 99), 7);
    assert.equal(percentile([1, 2, 3], 50), 2);
    assert.equal(percentile([], 50), null);
  });
});

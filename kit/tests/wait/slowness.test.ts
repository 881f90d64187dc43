/** The machine's slowness (wait/slowness.ts): the ratio to the calm machine's time, at least 1, at most MAX_SLOWNESS. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALM_WORK_MS, MAX_SLOWNESS, scaledMs, slowness, workMs } from '../../src/wait/slowness.js';

describe('slowness', () => {
  it('is the ratio to the calm machine, never below 1 nor above the cap', () => {
    assert.equal(slowness(CALM_WORK_MS * 3), 3);
    assert.equal(slowness(CALM_WORK_MS / 2), 1);
    assert.equal(slowness(CALM_WORK_MS * 100), MAX_SLOWNESS);
  });
  it('times real work here, and stretches a bound by it', () => {
    const ms = workMs();
    assert.ok(ms > 0 && Number.isFinite(ms), `the work took ${ms} ms`);
    const b = scaledMs(1_000);
    assert.ok(b >= 1_000 && b <= 1_000 * MAX_SLOWNESS, `1 s scaled to ${b} ms`);
  });
});

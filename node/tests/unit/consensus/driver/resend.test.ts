/**
 * When a node re-sends its own messages (consensus/driver/resend.ts): after a quiet period without a
 * step of its own, then backing off while it keeps waiting, and from the start again once it
 * moves.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_QUIET_PERIODS, ResendSchedule } from '../../../../src/consensus/driver/resend.js';

/** The times in [0, until) at which `schedule` says to re-send, asked every `every` ms. */
function resendTimes(
  schedule: ResendSchedule,
  until: number,
  progressAt: (t: number) => number,
  every = 250,
) {
  const at: number[] = [];
  for (let t = 0; t < until; t += every) if (schedule.due(progressAt(t), t)) at.push(t);
  return at;
}

describe('the re-send schedule', () => {
  it('re-sends after a quiet second, then backs off to at most one re-send every 8 s', () => {
    const times = resendTimes(new ResendSchedule(1000, 0, 0), 60_000, () => 0);
    assert.deepEqual(times.slice(0, 6), [1000, 3000, 7000, 15_000, 23_000, 31_000]);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    assert.ok(
      gaps.every((g) => g <= 1000 * MAX_QUIET_PERIODS),
      `a gap over ${MAX_QUIET_PERIODS} s: ${gaps.join(', ')}`,
    );
    // A minute of waiting: 9 re-sends, where one every second was 59.
    assert.equal(times.length, 9);
  });

  it('re-sends nothing while the node keeps moving, and starts from a quiet second again after a step', () => {
    // A step every half second: nothing to re-send.
    assert.deepEqual(
      resendTimes(new ResendSchedule(1000, 0, 0), 20_000, (t) => Math.floor(t / 500)),
      [],
    );
    // Quiet for 20 s (backing off to 8 s), a step at 20 s, quiet again: the next re-send a second after the step.
    const times = resendTimes(new ResendSchedule(1000, 0, 0), 30_000, (t) => (t < 20_000 ? 0 : 1));
    assert.deepEqual(times, [1000, 3000, 7000, 15_000, 21_000, 23_000, 27_000]);
  });
});

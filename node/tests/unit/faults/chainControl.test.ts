/**
 * chain_control.json (faults/chainControlFile.ts) and the control in force (faults/chainControl.ts):
 * the file's form read and written, a bad file refused naming the field with the control in force
 * kept, chain time never moved backwards, the node's clock skewed and the chain clock offset.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { applyChainControl, ChainControlInForce } from '../../../src/faults/chainControl.js';
import {
  formatChainControl,
  NO_CHAIN_CONTROL,
  parseChainControl,
} from '../../../src/faults/chainControlFile.js';

describe('chain_control.json', () => {
  it('reads back what it writes, and a file of the version alone is no control', () => {
    const c = {
      hold: true,
      mineToHeight: 250,
      blockTimeMs: 200,
      timeOffsetMs: 3_600_000,
      clockSkewMs: -10_000,
    };
    assert.deepEqual(parseChainControl(formatChainControl(c)), { ok: true, control: c });
    assert.deepEqual(parseChainControl('{"version":1}'), { ok: true, control: NO_CHAIN_CONTROL });
  });

  for (const [text, error] of [
    ['[]', 'the file must be a JSON object'],
    ['{"version":2}', 'version must be 1'],
    ['{"version":1,"pause":true}', 'pause is not a field'],
    ['{"version":1,"hold":"yes"}', 'hold must be true or false'],
    ['{"version":1,"mine_to_height":-1}', 'mine_to_height must be a whole number'],
    ['{"version":1,"block_time_ms":1.5}', 'block_time_ms must be a whole number'],
    ['{"version":1,"time_offset_ms":-1}', 'time_offset_ms must be a whole number from 0'],
    ['{"version":1,"clock_skew_ms":86400001}', 'clock_skew_ms must be a whole number'],
    ['{', 'not JSON'],
  ] as const)
    it(`refuses ${text}, naming what is wrong`, () => {
      const parsed = parseChainControl(text);
      assert.equal(parsed.ok, false);
      assert.ok(!parsed.ok && parsed.error.includes(error), !parsed.ok ? parsed.error : '');
    });
});

describe('the chain control in force', () => {
  it("skews the node's clock and offsets chain time, never the machine's clock", () => {
    let machine = 1_000_000;
    const c = new ChainControlInForce(() => machine);
    c.set({ ...NO_CHAIN_CONTROL, clockSkewMs: -10_000, timeOffsetMs: 3_600_000 });
    assert.equal(c.clock(), 990_000);
    assert.equal(c.chainClock(), 990_000 + 3_600_000);
    machine += 5;
    assert.equal(c.clock(), 990_005);
  });

  it('refuses a bad file or one moving chain time backwards, naming the field, and keeps the control in force', () => {
    const logger = memoryLogger();
    const c = new ChainControlInForce(() => 0);
    applyChainControl('{"version":1,"hold":true,"time_offset_ms":5000}', c, 'chain_control.json', logger);
    assert.equal(c.control.hold, true);
    applyChainControl('{"version":1,"hold":false,"time_offset_ms":4000}', c, 'chain_control.json', logger);
    applyChainControl('{"version":1,"hold":1}', c, 'chain_control.json', logger);
    applyChainControl(null, c, 'chain_control.json', logger); // removed: offset 0 would go backwards
    assert.deepEqual(c.control, { ...NO_CHAIN_CONTROL, hold: true, timeOffsetMs: 5000 });
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => String(l.msg));
    assert.ok(
      warnings.some((m) => m.includes('time_offset_ms 4000 would move chain time backwards')),
      warnings.join('\n'),
    );
    assert.ok(
      warnings.some(
        (m) => m.includes('hold must be true or false') && m.includes('the chain control in force stays'),
      ),
    );
  });

  it('holds and mines heights: entered with no wait up to the target, timeouts held beyond it', () => {
    const c = new ChainControlInForce(() => 0);
    c.set({ ...NO_CHAIN_CONTROL, hold: true, mineToHeight: 10, blockTimeMs: 700 });
    assert.equal(c.mayEnter(10), true);
    assert.equal(c.mayEnter(11), false);
    assert.equal(c.waitMs(10, 1000), 0);
    assert.equal(c.waitMs(11, 1000), 700);
    assert.equal(c.timeoutsHeld(10), false);
    assert.equal(c.timeoutsHeld(11), true);
  });
});

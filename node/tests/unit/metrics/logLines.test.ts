/**
 * The node's warnings and errors counted (metrics/logLines.ts over kit/log's observedLogger):
 * every warn and error line of the logger and its children, those logged before the counter
 * existed added when it comes, both series there from the start; info and debug not counted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryLogger, observedLogger } from '@chain-devnet/kit/log';
import { LogLineCount } from '../../../src/metrics/logLines.js';
import { createMetrics } from '../../../src/metrics/metrics.js';

const value = async (m: ReturnType<typeof createMetrics>, level: string) =>
  (await m.logLines.get()).values.find((v) => v.labels.level === level)?.value;

describe("the node's warnings and errors counted", () => {
  it('counts warn and error lines, its children and those before the counter too, and writes every line', async () => {
    const lines = new LogLineCount();
    const written = memoryLogger();
    const logger = observedLogger(written, lines.seen);
    logger.warn('early');
    logger.info('not counted');
    const metrics = createMetrics();
    assert.equal(await value(metrics, 'warn'), undefined, 'no series before the counter is attached');
    lines.attach(metrics.logLines);
    assert.equal(await value(metrics, 'warn'), 1);
    assert.equal(await value(metrics, 'error'), 0, 'the error series exists at 0');
    const child = logger.child({ part: 'p2p' });
    child.error('boom');
    child.warn('late');
    logger.debug('not counted');
    assert.equal(await value(metrics, 'warn'), 2);
    assert.equal(await value(metrics, 'error'), 1);
    assert.deepEqual(
      written.lines.map((l) => [l.level, l.msg, l.part ?? null]),
      [
        ['warn', 'early', null],
        ['info', 'not counted', null],
        ['error', 'boom', 'p2p'],
        ['warn', 'late', 'p2p'],
        ['debug', 'not counted', null],
      ],
    );
    assert.match(await metrics.registry.metrics(), /chain_log_lines_total\{level="warn"\} 2/);
  });
});

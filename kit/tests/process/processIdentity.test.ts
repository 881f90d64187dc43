/** A recorded process is running while its pid lives with the start time recorded; an ended or reused pid is not. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pidAlive, processStart, runProgram, stillRunning } from '../../src/process/index.js';

describe('process identity', () => {
  it('this process runs under its own start time, not under another one', async () => {
    const start = await processStart(process.pid);
    assert.match(start ?? '', /^\d+$/, 'a start time from /proc');
    assert.ok(pidAlive(process.pid));
    assert.equal(await stillRunning(process.pid, start), true);
    assert.equal(await stillRunning(process.pid, null), true, 'no start recorded: the pid alone');
    assert.equal(await stillRunning(process.pid, `${start}1`), false, 'a pid given to another process');
  });

  it('a process that has ended does not run', async () => {
    const ended = Number(
      (await runProgram({ command: 'sh', args: ['-c', 'echo $$'], timeoutMs: 10_000 })).stdout,
    );
    assert.equal(pidAlive(ended), false);
    assert.equal(await processStart(ended), null);
    assert.equal(await stillRunning(ended, null), false);
  });
});

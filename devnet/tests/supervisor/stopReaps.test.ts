/**
 * `devnet stop` and `devnet down` return with the auto-upgrade supervisor gone from the process
 * table, not only signalled (issue 39: `down` returned about a second before it had exited). On
 * the process runtime, one validator, `auto_upgrade: true`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devnetCli } from '../../src/harness/cli.js';
import { upWithVersions } from '../versions/olderBuild.js';

/** The supervisor's pid, from its pid file. */
const supervisorPid = async (home: string) =>
  Number.parseInt(await readFile(join(home, 'supervisor', 'supervisor.pid'), 'utf8'), 10);

/** What /proc says of `pid` now: gone, a zombie (exited, not reaped), or its state and command line. */
function procOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return `state ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)}: ${cmdline}`;
  } catch {
    return 'gone';
  }
}

/** Gone, or a pid used since by a process that is no supervisor of this devnet. */
const goneOrOther = (pid: number, home: string) => {
  const p = procOf(pid);
  return p === 'gone' || (!p.startsWith('state Z') && !p.includes(`supervise --home ${home}`));
};

describe('the supervisor is gone when stop and down return', { timeout: 240_000 }, () => {
  let dir = '';
  let home = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-supervisor-stop-'));
    home = join(dir, 'home');
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('stop, start and down: each return with the supervisor reaped', async () => {
    await upWithVersions(dir, home, 'process', [{}], { auto_upgrade: true });
    const first = await supervisorPid(home);
    assert.match(procOf(first), /supervise --home/);
    assert.equal((await devnetCli(['stop', '--home', home])).code, 0);
    assert.ok(goneOrOther(first, home), `after stop, supervisor ${first}: ${procOf(first)}`);

    assert.equal((await devnetCli(['start', '--home', home])).code, 0);
    const second = await supervisorPid(home);
    assert.match(procOf(second), /supervise --home/, 'start started it again');
    const down = await devnetCli(['down', '--home', home]);
    assert.equal(down.code, 0, down.stderr);
    assert.match(down.stdout, new RegExp(`removed process supervisor \\(pid ${second}\\)`));
    assert.ok(goneOrOther(second, home), `after down, supervisor ${second}: ${procOf(second)}`);
  });
});

/**
 * The supervisor as the other commands see it: a detached `devnet supervise --home H` process on
 * this host (on every runtime, as the panel: it acts through the runtime as the CLI does), its id
 * in <home>/supervisor/supervisor.pid and its output in <home>/supervisor/supervisor.log. Started
 * with the devnet when the manifest asks for auto_upgrade (`up --auto-upgrade`), stopped with it.
 *
 * It runs under the spawner's exit waiter, as a node does (its status in supervisor.exit): the
 * waiter reaps it the moment it exits, so that `devnet stop` and `down` return with it gone.
 * Without one its parent was the `devnet up` that started it, long gone, and it stayed in the
 * process table until this machine's init reaped it, 1.6 s after `down` here (issue 39).
 */
import { join } from 'node:path';
import {
  procState,
  readExitStatus,
  readPid,
  removePidFile,
  spawnDetached,
  stopProcess,
  waitForOrNull,
} from '@chain-devnet/node/harness';
import type { Layout } from '../base/layout.js';
import { devnetProgram } from '../base/repo.js';

const dir = (layout: Layout) => join(layout.home, 'supervisor');
const pidFile = (layout: Layout) => join(dir(layout), 'supervisor.pid');
export const supervisorLogFile = (layout: Layout) => join(dir(layout), 'supervisor.log');
const exitFile = (layout: Layout) => join(dir(layout), 'supervisor.exit');
/** On its command line: what ties a pid to this devnet's supervisor. */
const marker = (layout: Layout) => `supervise --home ${layout.home}`;

export async function supervisorPid(layout: Layout): Promise<number | null> {
  const pid = await readPid(pidFile(layout));
  if (pid === null) return null;
  return (await procState(pid, marker(layout))) === 'absent' ? null : pid;
}

/** Starts the supervisor unless it runs. */
export async function startSupervisor(layout: Layout): Promise<void> {
  if ((await supervisorPid(layout)) !== null) return;
  await spawnDetached({
    command: process.execPath,
    args: [devnetProgram(), 'supervise', '--home', layout.home],
    logFile: supervisorLogFile(layout),
    pidFile: pidFile(layout),
    exitFile: exitFile(layout),
  });
}

/**
 * Stops it if it runs, and returns once its waiter has written how it ended (so has reaped it);
 * what was stopped, for `devnet down`'s list.
 */
export async function stopSupervisor(layout: Layout): Promise<string[]> {
  const pid = await supervisorPid(layout);
  if (pid !== null) {
    await stopProcess(pid, marker(layout));
    // Bounded: a supervisor started by an older devnet has no waiter, and no exit file comes.
    await waitForOrNull('the supervisor to be reaped', 2_000, () => readExitStatus(exitFile(layout)), {
      pollMs: 10,
    });
  }
  await removePidFile(pidFile(layout));
  return pid === null ? [] : [`process supervisor (pid ${pid})`];
}

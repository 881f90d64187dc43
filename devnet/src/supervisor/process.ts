/**
 * The supervisor as the other commands see it: a detached `devnet supervise --home H` process on
 * this host (on every runtime, as the panel: it acts through the runtime as the CLI does), its id
 * in <home>/supervisor/supervisor.pid and its output in <home>/supervisor/supervisor.log. Started
 * with the devnet when the manifest asks for auto_upgrade (`up --auto-upgrade`), stopped with it.
 */
import { join } from 'node:path';
import { procState, readPid, removePidFile, spawnDetached, stopProcess } from '@chain-devnet/node/harness';
import type { Layout } from '../layout.js';
import { devnetProgram } from '../repo.js';

const dir = (layout: Layout) => join(layout.home, 'supervisor');
const pidFile = (layout: Layout) => join(dir(layout), 'supervisor.pid');
export const supervisorLogFile = (layout: Layout) => join(dir(layout), 'supervisor.log');
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
  });
}

/** Stops it if it runs; what was stopped, for `devnet down`'s list. */
export async function stopSupervisor(layout: Layout): Promise<string[]> {
  const pid = await supervisorPid(layout);
  if (pid !== null) await stopProcess(pid, marker(layout));
  await removePidFile(pidFile(layout));
  return pid === null ? [] : [`process supervisor (pid ${pid})`];
}

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
import { DetachedProgram } from '@chain-devnet/kit/process';
import type { Layout } from '../base/layout.js';
import { devnetProgram } from '../base/repo.js';

const dir = (layout: Layout) => join(layout.home, 'supervisor');
export const supervisorLogFile = (layout: Layout) => join(dir(layout), 'supervisor.log');

/** The supervisor's process, by its files; a marker on its command line ties a pid to this devnet's. */
const supervisor = (layout: Layout) =>
  new DetachedProgram({
    what: 'supervisor',
    command: process.execPath,
    args: [devnetProgram(), 'supervise', '--home', layout.home],
    pidFile: join(dir(layout), 'supervisor.pid'),
    logFile: supervisorLogFile(layout),
    exitFile: join(dir(layout), 'supervisor.exit'),
    marker: `supervise --home ${layout.home}`,
  });

export function supervisorPid(layout: Layout): Promise<number | null> {
  return supervisor(layout).pid();
}

/** Starts the supervisor unless it runs. */
export async function startSupervisor(layout: Layout): Promise<void> {
  await supervisor(layout).start();
}

/**
 * Stops it if it runs, and returns once its waiter has written how it ended (so has reaped it);
 * what was stopped, for `devnet down`'s list.
 */
export function stopSupervisor(layout: Layout): Promise<string[]> {
  return supervisor(layout).stop();
}

/**
 * A node (or service) of the process runtime: a detached process, its id in run/<name>.pid and
 * its output in logs/<name>.log. Pause and resume are SIGSTOP and SIGCONT. The node reads its
 * home on this machine, so its blocked-peers list is in force once written (blockedPeers.ts).
 */
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import {
  procState,
  readExitStatus,
  readPid,
  removePidFile,
  signal,
  spawnDetached,
  stopProcess,
} from '@chain-devnet/kit/process';
import { waitFor, waitForOrNull } from '@chain-devnet/kit/wait';
import { NODE_ENV, NODE_V8_FLAGS } from '@chain-devnet/node/builds';
import { nodeFileOf, writeNodeFile } from '@chain-devnet/node/testnet';
import { DevnetError } from '../../base/errors.js';
import type { Layout } from '../../base/layout.js';
import { isMonitor, monitorHome } from '../../monitoring/monitorHome.js';
import type { NodeSpec } from '../../spec/networkSpec.js';
import type { DiskBackend, FillOp } from '../dataDisk.js';
import { keepEarlierRun } from '../earlierRuns.js';
import { localEndpoint } from '../localEndpoint.js';
import { tailFile } from '../logTail.js';
import { nodeStartArgs } from '../nodeCommand.js';
import type { LogOptions, NodeEndpoint, NodeHandle, NodeLaunch, NodeRunState } from '../runtime.js';
import { backendHere, fillHere, mountDataTmpfs } from './dataTmpfs.js';
import { nodeProgramOf } from './programs.js';

/**
 * Whether `name` is a service's or a monitor's rather than a node's: a service's folder exists
 * from its first start; a node never has one (their names are the devnet's accounts', which never
 * share a node's name).
 */
export function isServiceName(layout: Layout, name: string): boolean {
  return isMonitor(name) || existsSync(layout.serviceHome(name));
}

/** The marker that ties a pid to this devnet's process (the home folder is on its command line). */
export function marker(layout: Layout, name: string): string {
  if (isMonitor(name)) return monitorHome(layout, name);
  return isServiceName(layout, name) ? layout.serviceHome(name) : layout.nodeHome(name);
}

/**
 * A node of a runtime that runs it from its home here (process, threads) replaced: stopped, then
 * started from the launch's program, the home (its data) where it was. Its log file goes on (the
 * next run appends), with a line saying how the run ended (earlierRuns.ts).
 */
export async function replaceHere(layout: Layout, node: NodeHandle, l: NodeLaunch): Promise<void> {
  // Refused (an image, no build there) before the node goes down.
  nodeProgramOf(l.build);
  await node.stop();
  const ended = await readExitStatus(layout.exitFile(node.name));
  await keepEarlierRun(layout.logFile(node.name), new Uint8Array(), node.name, ended, l.build.version);
  await node.start(l);
}

/** The process's id, or null when it is not running (a pid file left by a process that ended). */
export async function pidOf(layout: Layout, name: string): Promise<number | null> {
  const pid = await readPid(layout.pidFile(name));
  if (pid === null) return null;
  return (await procState(pid, marker(layout, name))) === 'absent' ? null : pid;
}

/**
 * Stops a node's or service's process (stopProcess) and removes its pid file. A node's process
 * has a waiter that writes its exit status (spawnDetached's exit file): the stop ends once it is
 * written, so nothing of the node is left running after it.
 */
export async function stopAndReap(layout: Layout, name: string, graceMs?: number): Promise<string | null> {
  const filed = await readPid(layout.pidFile(name));
  const pid = await pidOf(layout, name);
  if (pid !== null) await stopProcess(pid, marker(layout, name), graceMs);
  // Services have no node home, and no waiter.
  if (filed !== null && existsSync(layout.nodeHome(name))) await awaitExitStatus(layout, name);
  await removePidFile(layout.pidFile(name));
  return pid === null ? null : `process ${name} (pid ${pid})`;
}

/**
 * A node's exit status once its waiter has written it: the waiter writes it just after the process
 * ends, so a node seen gone may not have it yet (the e2e upgrade read null for a node that had
 * halted with 3). Null if none comes within 2 s (a node killed with its waiter).
 */
export function awaitExitStatus(layout: Layout, name: string): Promise<number | null> {
  return waitForOrNull(`${name}'s exit status`, 2_000, () => readExitStatus(layout.exitFile(name)), {
    pollMs: 10,
  });
}

export class ProcessNode implements NodeHandle {
  constructor(
    private readonly layout: Layout,
    readonly name: string,
  ) {}

  async start(l: NodeLaunch): Promise<void> {
    if ((await this.state()) === 'running') return;
    await writeNodeFile(l.home, nodeFileOf(l.node, l.peers, { host: '127.0.0.1' }));
    if (l.node.diskBytes !== null) await mountDataTmpfs(l.home, l.node.diskBytes);
    await spawnDetached({
      command: process.execPath,
      // This checkout's node under the V8 flags its code cache was made with; another build's
      // (git:REF, path:DIR) under none, as the caches of builds before NODE_V8_FLAGS were made.
      args: [
        ...(l.build.kind === 'checkout' ? NODE_V8_FLAGS : []),
        nodeProgramOf(l.build),
        ...nodeStartArgs(l.node, { home: l.home }),
      ],
      env: { ...process.env, ...NODE_ENV },
      logFile: this.layout.logFile(this.name),
      pidFile: this.layout.pidFile(this.name),
      exitFile: this.layout.exitFile(this.name),
    });
  }

  replace(l: NodeLaunch): Promise<void> {
    return replaceHere(this.layout, this, l);
  }

  async exitCode(): Promise<number | null> {
    // No pid file: never started, or stopped and reaped (its status written by then).
    if ((await readPid(this.layout.pidFile(this.name))) === null)
      return readExitStatus(this.layout.exitFile(this.name));
    if ((await this.state()) !== 'stopped') return null;
    return awaitExitStatus(this.layout, this.name);
  }

  async endpoint(node: NodeSpec): Promise<NodeEndpoint> {
    return localEndpoint(node);
  }

  private async requirePid(what: string): Promise<number> {
    const pid = await pidOf(this.layout, this.name);
    if (pid === null) throw new DevnetError('UNKNOWN_NODE', `${this.name} is not running: cannot ${what} it`);
    return pid;
  }

  async stop(): Promise<void> {
    await stopAndReap(this.layout, this.name);
  }

  async kill(): Promise<void> {
    const pid = await this.requirePid('kill');
    signal(pid, 'SIGKILL');
    await stopAndReap(this.layout, this.name, 5_000);
  }

  async pause(): Promise<void> {
    await this.signalUntil('pause', 'SIGSTOP', 'stopped');
  }

  async resume(): Promise<void> {
    await this.signalUntil('resume', 'SIGCONT', 'running');
  }

  /**
   * A signal is delivered when the process is next scheduled, not when kill() returns: on a busy
   * machine a node read right after `pause` was still running (the testkit's pause test saw it).
   * The operation ends when the kernel shows the state it asked for (bounded).
   */
  private async signalUntil(op: string, sig: NodeJS.Signals, want: 'stopped' | 'running'): Promise<void> {
    const pid = await this.requirePid(op);
    signal(pid, sig);
    const s = await waitFor(`${this.name} ${want} after ${sig}`, 5_000, async () => {
      const now = await procState(pid, marker(this.layout, this.name));
      return (now === want || now === 'absent') && now;
    });
    if (s === 'absent') throw new DevnetError('UNKNOWN_NODE', `${this.name} exited: cannot ${op} it`);
  }

  async state(): Promise<NodeRunState> {
    const pid = await readPid(this.layout.pidFile(this.name));
    if (pid === null) return 'stopped';
    const s = await procState(pid, marker(this.layout, this.name));
    return s === 'absent' ? 'stopped' : s === 'stopped' ? 'paused' : 'running';
  }

  async logs(o: LogOptions, out: Writable): Promise<void> {
    await tailFile(this.layout.logFile(this.name), o, out);
  }

  /** It reads its home on this machine: the file is where it looks already. */
  async copyHomeFile(): Promise<void> {}

  /** It writes its home on this machine: everything is there already. */
  async pullHome(): Promise<void> {}

  /** The blocked-peers list is the whole cut. */
  async cutOff(): Promise<void> {}

  diskBackend(): Promise<DiskBackend> {
    return backendHere(this.layout.nodeHome(this.name));
  }

  fillDisk(op: FillOp): Promise<boolean> {
    return fillHere(this.layout.nodeHome(this.name), op);
  }
}

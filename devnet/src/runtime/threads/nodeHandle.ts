/**
 * A node of the threads runtime: a worker thread of the devnet's host process (host.ts), reached
 * through the host's socket (control.ts); the host is started by the first node that starts.
 * Everything else is as on the process runtime: the node reads and writes its home on this
 * machine, listens on 127.0.0.1, and its output and exit status are in logs/<name>.log and
 * run/<name>.exit.
 */
import type { Writable } from 'node:stream';
import { readExitStatus } from '@chain-devnet/kit/process';
import { nodeFileOf, writeNodeFile } from '@chain-devnet/node/testnet';
import { DevnetError } from '../../base/errors.js';
import type { Layout } from '../../base/layout.js';
import type { NodeSpec } from '../../spec/networkSpec.js';
import type { DiskBackend, FillOp } from '../dataDisk.js';
import { localEndpoint } from '../localEndpoint.js';
import { tailFile } from '../logTail.js';
import { nodeStartArgs } from '../nodeCommand.js';
import { backendHere, fillHere, mountDataTmpfs } from '../process/dataTmpfs.js';
import { replaceHere } from '../process/nodeHandle.js';
import { nodeProgramOf } from '../process/programs.js';
import type { LogOptions, NodeEndpoint, NodeHandle, NodeLaunch, NodeRunState } from '../runtime.js';
import { ask, type HostRequest, NoHost, type ThreadState } from './control.js';
import { ensureHost } from './hostProcess.js';

export class ThreadNode implements NodeHandle {
  constructor(
    private readonly layout: Layout,
    readonly name: string,
  ) {}

  /** The host's answer; with no host, the node is stopped (or, to start it, the host is started). */
  private async ask(op: HostRequest['op'], launch?: NodeLaunch): Promise<ThreadState> {
    const request: HostRequest =
      launch === undefined
        ? { op: op as Exclude<HostRequest['op'], 'start'>, name: this.name }
        : {
            op: 'start',
            name: this.name,
            program: nodeProgramOf(launch.build),
            args: nodeStartArgs(launch.node, { home: launch.home }),
            logFile: this.layout.logFile(this.name),
            exitFile: this.layout.exitFile(this.name),
          };
    for (let attempt = 0; ; attempt++) {
      try {
        return await ask(this.layout, request);
      } catch (e) {
        if (!(e instanceof NoHost)) throw e;
        if (op === 'state' || op === 'stop') return 'stopped';
        if (op !== 'start' || attempt > 0) return this.notRunning(op);
        await ensureHost(this.layout);
      }
    }
  }

  private notRunning(op: string): never {
    throw new DevnetError('UNKNOWN_NODE', `${this.name} is not running: cannot ${op} it`);
  }

  async start(l: NodeLaunch): Promise<void> {
    if ((await this.state()) !== 'stopped') return;
    await writeNodeFile(l.home, nodeFileOf(l.node, l.peers, { host: '127.0.0.1' }));
    if (l.node.diskBytes !== null) await mountDataTmpfs(l.home, l.node.diskBytes);
    await this.ask('start', l);
  }

  /** As the process runtime's: stopped, then started from the launch's build, the log going on. */
  replace(l: NodeLaunch): Promise<void> {
    return replaceHere(this.layout, this, l);
  }

  async exitCode(): Promise<number | null> {
    if ((await this.state()) !== 'stopped') return null;
    return readExitStatus(this.layout.exitFile(this.name));
  }

  async endpoint(node: NodeSpec): Promise<NodeEndpoint> {
    return localEndpoint(node);
  }

  async stop(): Promise<void> {
    await this.ask('stop');
  }

  async kill(): Promise<void> {
    await this.ask('kill');
  }

  async pause(): Promise<void> {
    await this.ask('pause');
  }

  async resume(): Promise<void> {
    await this.ask('resume');
  }

  async state(): Promise<NodeRunState> {
    return this.ask('state');
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

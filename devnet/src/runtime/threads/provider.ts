/**
 * The threads runtime: every node of the devnet is a worker thread of one host process on this
 * machine (host.ts), as CometMock and anvil-style simulations run many nodes in one process: the
 * Node binary, its libuv and its allocator are there once instead of once a node, and starting a
 * node costs a thread, not a process. Each node is otherwise as on the process runtime (its home,
 * its ports on 127.0.0.1, its log, its exit status); services and monitors are processes, started
 * as the process runtime starts them.
 *
 * What a thread is not: a node killed is ended at once (no more of its JavaScript runs) but its
 * store is closed by the host (LevelDB's own teardown), where a SIGKILLed process leaves it as it
 * was; a node's process metrics (process_resident_memory_bytes, CPU) are the host's, every node's
 * alike; and a node that brings its thread's process down (a native crash, running out of memory)
 * takes every node with it.
 */
import type { Layout } from '../../base/layout.js';
import { isServiceName } from '../process/nodeHandle.js';
import { ProcessRuntime } from '../process/provider.js';
import type {
  Capabilities,
  NodeHandle,
  Progress,
  Runtime,
  ServiceLaunch,
  ServiceReach,
  ServiceSkipped,
} from '../runtime.js';
import { socketPathOf } from './control.js';
import { stopHost } from './hostProcess.js';
import { ThreadNode } from './nodeHandle.js';

export class ThreadsRuntime implements Runtime {
  readonly kind = 'threads' as const;
  /** Services and monitors run as the process runtime runs them. */
  private readonly processes: ProcessRuntime;

  constructor(private readonly layout: Layout) {
    this.processes = new ProcessRuntime(layout);
  }

  capabilities(): Capabilities {
    return { machines: false, discovery: null };
  }

  async prepare(progress: Progress): Promise<void> {
    await this.processes.prepare(() => undefined);
    // Refused now, not at the first node's start: a home too deep for the host's socket.
    socketPathOf(this.layout);
    progress('runtime: threads of one host process');
  }

  /** A service's or monitor's handle is a process's; a node's a thread's. */
  node(name: string): NodeHandle {
    if (isServiceName(this.layout, name)) return this.processes.node(name);
    return new ThreadNode(this.layout, name);
  }

  serviceReach(home: string): ServiceReach {
    return this.processes.serviceReach(home);
  }

  startService(s: ServiceLaunch): Promise<ServiceSkipped> {
    return this.processes.startService(s);
  }

  serviceUrl(port: number): Promise<string> {
    return this.processes.serviceUrl(port);
  }

  servicesPublishedOn(): Promise<null> {
    return this.processes.servicesPublishedOn();
  }

  /** The host first (it stops every node as `devnet stop` would), then the services and the home. */
  async teardown(keepData: boolean): Promise<string[]> {
    const host = await stopHost(this.layout);
    return [...host, ...(await this.processes.teardown(keepData))];
  }
}

/**
 * The process runtime: every node and service is a detached process on 127.0.0.1 (nodeHandle.ts);
 * services and monitors run from this machine's programs (programs.ts).
 */
import { access } from 'node:fs/promises';
import { spawnDetached } from '@chain-devnet/kit/process';
import { DevnetError } from '../../base/errors.js';
import type { Layout } from '../../base/layout.js';
import { localServiceUrl } from '../localEndpoint.js';
import type {
  Capabilities,
  NodeHandle,
  Progress,
  Runtime,
  ServiceLaunch,
  ServiceReach,
  ServiceSkipped,
} from '../runtime.js';
import { ProcessNode } from './nodeHandle.js';
import { commandOf, NODE_PROGRAM } from './programs.js';
import { teardownProcesses } from './teardown.js';

export class ProcessRuntime implements Runtime {
  readonly kind = 'process' as const;

  constructor(private readonly layout: Layout) {}

  capabilities(): Capabilities {
    return { machines: false, discovery: null };
  }

  async prepare(progress: Progress): Promise<void> {
    try {
      await access(NODE_PROGRAM);
    } catch {
      throw new DevnetError(
        'NODE_START',
        `the node is not built (${NODE_PROGRAM} is missing): run npm run build`,
      );
    }
    progress('runtime: local processes');
  }

  node(name: string): NodeHandle {
    return new ProcessNode(this.layout, name);
  }

  serviceReach(home: string): ServiceReach {
    return {
      home,
      host: '127.0.0.1',
      rpc: (n) => `http://127.0.0.1:${n.rpcPort}`,
      service: (_name, port) => localServiceUrl(port),
    };
  }

  async serviceUrl(port: number): Promise<string> {
    return localServiceUrl(port);
  }

  async servicesPublishedOn(): Promise<null> {
    return null;
  }

  async startService(s: ServiceLaunch): Promise<ServiceSkipped> {
    const command = commandOf(s.program);
    if ('note' in command) return command.note;
    if ((await this.node(s.name).state()) === 'running') return null;
    const reach = this.serviceReach(s.home);
    await spawnDetached({
      command: command.command,
      args: [...command.args, ...s.args(reach)],
      ...(s.env === undefined ? {} : { env: { ...process.env, ...s.env(reach) } }),
      logFile: this.layout.logFile(s.name),
      pidFile: this.layout.pidFile(s.name),
    });
    return null;
  }

  teardown(keepData: boolean): Promise<string[]> {
    return teardownProcesses(this.layout, keepData);
  }
}

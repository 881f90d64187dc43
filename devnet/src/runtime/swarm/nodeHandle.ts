/**
 * A node (or service) of the swarm runtime: its service devnet-<id>-<name>. stop scales it to 0
 * (SIGTERM, SIGKILL after 10 s), start scales it to 1 or, when the replica is there but its task
 * ended (killed), forces a new task. kill, pause, resume and the blocked-peers list go to the
 * engine of the machine running the task (swarmEngines.ts); logs come from the manager, after
 * the lines kept of the tasks a `devnet upgrade` replaced (earlierRuns.ts).
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type Docker from 'dockerode';
import tar from 'tar-fs';
import type { NodeSpec } from '../../spec/networkSpec.js';
import { BLOCKED_PEERS_FILE } from '../blockedPeers.js';
import { CHAIN_CONTROL_FILE } from '../chainControl.js';
import type { DiskBackend, FillOp } from '../dataDisk.js';
import { DISK_FAULTS_FILE } from '../diskFaults.js';
import { fillInContainer, hasDataTmpfs } from '../docker/containerExec.js';
import { pauseFrozen } from '../docker/engineErrors.js';
import { VERSION_LABEL } from '../docker/labels.js';
import { demux, followLogs } from '../docker/logStream.js';
import { EARLIER_RUN_LINES, keepEarlierRun, writeEarlier } from '../earlierRuns.js';
import { NET_CONDITIONS_FILE } from '../netConditions.js';
import { CONTAINER_HOME } from '../nodeCommand.js';
import type { LogOptions, NodeEndpoint, NodeHandle, NodeLaunch, NodeRunState } from '../runtime.js';
import { createNodeService } from './services.js';
import { STOP_GRACE_MS, type SwarmDevnet } from './swarmDevnet.js';
import { pinnedMachine, pullServiceVolume } from './swarmVolumes.js';
import { bringUp, waitDown, waitRunning } from './tasks.js';

export class SwarmNode implements NodeHandle {
  constructor(
    private readonly sd: SwarmDevnet,
    readonly name: string,
  ) {}

  async start(l: NodeLaunch): Promise<void> {
    const { sd, name } = this;
    const s = await sd.service(name);
    if (s === null) {
      await createNodeService(sd, l, () => undefined);
      await waitRunning(sd, name, new Set());
      return;
    }
    if ((await sd.runningTask(name)) !== null) {
      // Running: at most paused (which only its machine's engine knows and undoes).
      const c = await sd.taskContainer(name, `start ${name}`).catch(() => null);
      if (c !== null && (await c.container.inspect()).State.Paused) await c.container.unpause();
      return;
    }
    await bringUp(sd, name, s);
    // Its blocked-peers list, disk faults, network conditions and chain control may have changed while it was down.
    await this.copyHomeFile(sd.layout.nodeHome(name), BLOCKED_PEERS_FILE);
    await this.copyHomeFile(sd.layout.nodeHome(name), DISK_FAULTS_FILE);
    await this.copyHomeFile(sd.layout.nodeHome(name), NET_CONDITIONS_FILE);
    await this.copyHomeFile(sd.layout.nodeHome(name), CHAIN_CONTROL_FILE);
  }

  /**
   * Scaled to 0 (a graceful stop), its image set to the launch's version's (pushed or loaded as
   * at its creation), and brought up again on the machine that holds its volume.
   */
  async replace(l: NodeLaunch): Promise<void> {
    const { sd, name } = this;
    if ((await sd.service(name)) === null) return this.start(l);
    const plan = await sd.image(() => undefined, l.build);
    // Scaled to 0, its tasks and their logs go: their last lines and how the last one ended are
    // read first (a halt's 'UPGRADE NEEDED' line and exit code), kept once it is down.
    // A manager that cannot give them does not hold the upgrade up: the line alone is kept.
    const lines = await this.serviceLines(EARLIER_RUN_LINES).catch(() => Buffer.alloc(0));
    const ended = await this.exitCode();
    await this.stop();
    await keepEarlierRun(sd.layout.logFile(name), lines, name, ended, l.build.version);
    const s = (await sd.service(name))!;
    await sd.update(s, (spec) => {
      const c = (spec.TaskTemplate as Docker.ContainerTaskSpec | undefined)?.ContainerSpec;
      if (c !== undefined) {
        c.Image = plan.ref;
        c.Labels = { ...c.Labels, [VERSION_LABEL]: l.build.version };
      }
    });
    await bringUp(sd, name, (await sd.service(name))!);
  }

  /** The exit code of its newest task, once that task ended (restart condition none: it stays so). */
  async exitCode(): Promise<number | null> {
    const [newest] = await this.sd.tasks(this.name);
    if (newest === undefined || newest.Status?.State === 'running') return null;
    return newest.Status?.ContainerStatus?.ExitCode ?? null;
  }

  async endpoint(node: NodeSpec): Promise<NodeEndpoint> {
    const s = await this.sd.service(node.name);
    const pinned = s === null ? undefined : pinnedMachine(s);
    if (s === null || pinned === undefined)
      return {
        rpc: `http://127.0.0.1:${node.rpcPort}`,
        machine: null,
        published: 'nothing: the node has no service',
      };
    const m = (await this.sd.machines()).byId(pinned);
    return {
      rpc: `http://${m.host}:${node.rpcPort}`,
      machine: m.name,
      published: `RPC ${node.rpcPort} on every address of ${m.name} (swarm host-mode publishing binds no single address); p2p on the devnet's overlay network only`,
    };
  }

  async stop(): Promise<void> {
    const { sd, name } = this;
    const s = await sd.service(name);
    if (s === null) return;
    const running = await sd.taskContainer(name, `stop ${name}`).catch(() => null);
    // A frozen container cannot act on SIGTERM.
    if (running !== null && (await running.container.inspect()).State.Paused)
      await running.container.unpause();
    if (s.Spec?.Mode?.Replicated?.Replicas !== 0)
      await sd.update(s, (spec) => {
        spec.Mode = { Replicated: { Replicas: 0 } };
      });
    await waitDown(sd, name, STOP_GRACE_MS + 30_000);
  }

  async kill(): Promise<void> {
    const c = await this.sd.requireContainer(this.name, 'kill');
    await c.kill({ signal: 'SIGKILL' });
    await waitDown(this.sd, this.name, 30_000);
  }

  async pause(): Promise<void> {
    const c = await this.sd.requireContainer(this.name, 'pause');
    await pauseFrozen(() => c.pause());
  }

  async resume(): Promise<void> {
    await (await this.sd.requireContainer(this.name, 'resume')).unpause();
  }

  async state(): Promise<NodeRunState> {
    if ((await this.sd.service(this.name)) === null) return 'absent';
    const t = await this.sd.runningTask(this.name);
    if (t === null) return 'stopped';
    // Paused is known only to the machine's engine; without one, a paused node shows as running.
    const c = await this.sd.taskContainer(this.name, 'see whether it is paused').catch(() => null);
    if (c === null) return 'running';
    return (await c.container.inspect()).State.Paused ? 'paused' : 'running';
  }

  /**
   * From the manager (service logs: every task's, the current one's and those before a restart),
   * so no engine address is needed, after the kept lines of tasks an upgrade replaced. --tail N
   * is the last N lines over all of them, by time.
   */
  async logs(o: LogOptions, out: Writable): Promise<void> {
    await this.sd.requireService(this.name, 'show the logs of');
    const current = await this.serviceLines(o.tail);
    await writeEarlier(this.sd.layout.logFile(this.name), current, o.tail, out);
    if (!o.follow) {
      out.write(current);
      return;
    }
    const service = this.sd.d.getService(this.sd.name(this.name));
    const stream = (await service.logs({
      stdout: true,
      stderr: true,
      follow: true,
      ...(o.tail === null ? {} : { tail: o.tail }),
    })) as unknown as NodeJS.ReadableStream & { destroy(): void };
    await followLogs(this.sd.d.modem, stream, out, o.signal);
  }

  /** The service's last `tail` lines (all without one) over its tasks, by time. */
  private async serviceLines(tail: number | null): Promise<Buffer> {
    const service = this.sd.d.getService(this.sd.name(this.name));
    const raw = (await service.logs({
      stdout: true,
      stderr: true,
      follow: false,
      timestamps: true,
      ...(tail === null ? {} : { tail }),
    })) as unknown as Buffer;
    const lines = demux(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw)))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const space = line.indexOf(' ');
        return { at: line.slice(0, space), text: line.slice(space + 1) };
      })
      // Stable: lines of one task keep their order.
      .sort((a, b) => a.at.localeCompare(b.at));
    const kept = tail === null ? lines : lines.slice(Math.max(0, lines.length - tail));
    return Buffer.from(kept.map((l) => `${l.text}\n`).join(''));
  }

  /** Copies the file into its running container (one that is down gets it when it starts). */
  async copyHomeFile(home: string, file: string): Promise<void> {
    // No such file was ever written for it: nothing to copy.
    if (!existsSync(join(home, file))) return;
    const c = await this.sd.taskContainer(this.name, `change the peers ${this.name} talks to`);
    if (c === null) return;
    await c.container.putArchive(tar.pack(home, { entries: [file] }), { path: CONTAINER_HOME });
  }

  /** Its volume, on the machine its service is pinned to, read through that machine's engine (stopped: scaled to 0). */
  async pullHome(home: string): Promise<void> {
    await pullServiceVolume(this.sd, this.name, home);
  }

  /** The blocked-peers list is the whole cut; the node must have a service. */
  async cutOff(cut: boolean): Promise<void> {
    await this.sd.requireService(this.name, cut ? 'disconnect' : 'connect');
  }

  async diskBackend(): Promise<DiskBackend> {
    const s = await this.sd.service(this.name);
    const task = s?.Spec?.TaskTemplate as Docker.ContainerTaskSpec | undefined;
    return hasDataTmpfs(task?.ContainerSpec?.Mounts) ? 'tmpfs' : 'layer';
  }

  async fillDisk(op: FillOp): Promise<boolean> {
    if ((await this.diskBackend()) !== 'tmpfs') return false;
    const c = await this.sd.taskContainer(this.name, `reach the disk of ${this.name}`).catch(() => null);
    return c === null ? false : fillInContainer(c.container, op);
  }
}

/**
 * The machines of a swarm and the Docker engine of each. The devnet drives the swarm through its
 * manager (the engine dockerode reaches: DOCKER_HOST or the local socket). What the swarm API
 * cannot do (kill, pause or unpause a task's container, copy a file into it, remove a volume or
 * an image on a machine, load an image into it) goes to the engine of the machine where it is.
 * That engine's address comes, first found:
 *   1. from the manifest: `engines: { <machine name or id>: tcp://HOST:2375 | ssh://USER@HOST }`;
 *   2. from the machine's label io.chain-devnet.engine (docker node update --label-add
 *      io.chain-devnet.engine=tcp://HOST:2375 NAME), so every devnet on that swarm finds it;
 *   3. for the manager the devnet talks to, its own engine.
 * A machine without one still runs nodes (with a registry) and shows their logs; the commands
 * that need its engine fail with a message that says how to give one.
 */
import Docker from 'dockerode';
import { DevnetError } from '../../base/errors.js';
import { docker } from '../docker/engine.js';

export const ENGINE_LABEL = 'io.chain-devnet.engine';

export interface Machine {
  /** The swarm node id. */
  readonly id: string;
  /** Its hostname, as `docker node ls` shows it. */
  readonly name: string;
  /** Ready and available for tasks. */
  readonly ready: boolean;
  readonly manager: boolean;
  /** The manager the devnet talks to. */
  readonly local: boolean;
  /** Where its published ports are reached from this machine. */
  readonly host: string;
  /** Its engine's address, 'manager' for the one the devnet talks to, or null when none is known. */
  readonly engine: string | null;
}

/** Whether the devnet's own engine is on this machine (a socket), so its ports answer on 127.0.0.1. */
function engineIsHere(): boolean {
  const h = process.env.DOCKER_HOST;
  return h === undefined || h === '' || h.startsWith('unix://');
}

/** The engine's check for --runtime swarm: a manager of an active swarm. Returns why it will do. */
export async function requireSwarmManager(): Promise<string> {
  const info = (await docker().info()) as {
    Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean; Nodes?: number };
  };
  const swarm = info.Swarm ?? {};
  if (swarm.LocalNodeState !== 'active')
    throw new DevnetError(
      'NO_ENGINE',
      `the Docker engine is in no swarm (swarm state: ${swarm.LocalNodeState ?? 'unknown'}): make one with docker swarm init (this machine alone), join machines with docker swarm join (devnet/README.md, "swarm"), or use --runtime docker`,
    );
  if (swarm.ControlAvailable !== true)
    throw new DevnetError(
      'NO_ENGINE',
      'the Docker engine is a swarm worker: the swarm runtime needs a manager (point DOCKER_HOST at one)',
    );
  return `asked for with --runtime swarm (${swarm.Nodes ?? '?'} machine${swarm.Nodes === 1 ? '' : 's'})`;
}

/** A Docker client for an engine address: tcp://HOST:PORT, ssh://[USER@]HOST[:PORT] or unix:///PATH. */
export function engineAt(address: string): Docker {
  const u = new URL(address);
  switch (u.protocol) {
    case 'unix:':
      return new Docker({ socketPath: u.pathname });
    case 'tcp:':
      return new Docker({ protocol: 'http', host: u.hostname, port: Number(u.port || 2375) });
    case 'ssh:':
      return new Docker({
        protocol: 'ssh',
        host: u.hostname,
        port: Number(u.port || 22),
        ...(u.username === '' ? {} : { username: decodeURIComponent(u.username) }),
        ...(process.env.SSH_AUTH_SOCK === undefined
          ? {}
          : { sshOptions: { agent: process.env.SSH_AUTH_SOCK } }),
      });
    default:
      throw new DevnetError(
        'BAD_MANIFEST',
        `engine address ${address}: use tcp://HOST:PORT, ssh://[USER@]HOST or unix:///PATH`,
      );
  }
}

/** Host part of "ip:port" (a manager's address), IPv6 brackets removed. */
function hostOf(addr: string): string {
  return addr.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
}

interface NodeInfo {
  ID: string;
  Spec?: { Role?: string; Availability?: string; Labels?: Record<string, string> };
  Description?: { Hostname?: string };
  Status?: { State?: string; Addr?: string };
  ManagerStatus?: { Addr?: string };
}

/** The swarm's machines as one command sees them (read once), and the engines to reach them by. */
export class SwarmMachines {
  private readonly clients = new Map<string, Docker>();

  /** `all` in round-robin order (load() reads them from the swarm). */
  constructor(readonly all: readonly Machine[]) {}

  /** `engines`: the manifest's engine addresses, by machine name or id. */
  static async load(engines: Readonly<Record<string, string>>): Promise<SwarmMachines> {
    const d = docker();
    const info = (await d.info()) as { Swarm?: { NodeID?: string } };
    const self = info.Swarm?.NodeID ?? '';
    const nodes = (await d.listNodes()) as NodeInfo[];
    const here = engineIsHere();
    const machines = nodes.map((n): Machine => {
      const name = n.Description?.Hostname ?? n.ID;
      const local = n.ID === self;
      // A manager may report 0.0.0.0 as its address; its manager address is the real one.
      const status = n.Status?.Addr ?? '';
      const addr =
        status === '' || status === '0.0.0.0' ? hostOf(n.ManagerStatus?.Addr ?? '127.0.0.1') : status;
      return {
        id: n.ID,
        name,
        ready: n.Status?.State === 'ready' && (n.Spec?.Availability ?? 'active') === 'active',
        manager: n.Spec?.Role === 'manager',
        local,
        host: local && here ? '127.0.0.1' : addr,
        engine:
          engines[name] ?? engines[n.ID] ?? n.Spec?.Labels?.[ENGINE_LABEL] ?? (local ? 'manager' : null),
      };
    });
    // The manager first, then by name: round robin starts on this machine and is the same every time.
    machines.sort((a, b) => Number(b.local) - Number(a.local) || a.name.localeCompare(b.name));
    for (const key of Object.keys(engines))
      if (!machines.some((m) => m.name === key || m.id === key))
        throw new DevnetError(
          'BAD_MANIFEST',
          `engines.${key}: no machine of this swarm has that name or id (machines: ${machines.map((m) => m.name).join(', ')})`,
        );
    return new SwarmMachines(machines);
  }

  /** A machine by its name or id. */
  find(key: string): Machine | undefined {
    return this.all.find((m) => m.id === key || m.name === key);
  }

  byId(id: string): Machine {
    const m = this.all.find((x) => x.id === id);
    if (m === undefined)
      throw new DevnetError('RUNTIME', `swarm node ${id} is no longer in the swarm (docker node ls)`);
    return m;
  }

  /** The engine of a machine, or an error saying what needs it and how to give one. */
  engine(m: Machine, what: string): Docker {
    if (m.engine === 'manager') return docker();
    if (m.engine === null)
      throw new DevnetError(
        'RUNTIME',
        `cannot ${what}: that needs the Docker engine of machine ${m.name} (swarm node ${m.id.slice(0, 12)}), and none is known. Give its address in the manifest (engines: { ${m.name}: tcp://HOST:2375 }, or ssh://USER@HOST) or as a label every devnet finds: docker node update --label-add ${ENGINE_LABEL}=tcp://HOST:2375 ${m.name}`,
      );
    let c = this.clients.get(m.engine);
    if (c === undefined) {
      c = engineAt(m.engine);
      this.clients.set(m.engine, c);
    }
    return c;
  }

  hasEngine(m: Machine): boolean {
    return m.engine !== null;
  }
}

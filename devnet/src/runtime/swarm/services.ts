/**
 * The swarm services of a devnet: one per node and per service beside the nodes, each of one
 * replica pinned (placement constraint node.id==…) to one machine, on the devnet's overlay
 * network with endpoint mode dnsrr (a virtual IP answered EHOSTUNREACH across engines here: its
 * name resolves to its task's address instead), its port published in host mode on that machine.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONTAINER_PORTS, nodeFileOf, writeNodeFile } from '@chain-devnet/node/testnet';
import type Docker from 'dockerode';
import { DevnetError } from '../../base/errors.js';
import { dataTmpfsMount } from '../docker/containerExec.js';
import { VERSION_LABEL } from '../docker/labels.js';
import { CONTAINER_HOME, nodeStartArgs } from '../nodeCommand.js';
import type { NodeLaunch, Progress } from '../runtime.js';
import { chooseMachine } from './placement.js';
import { STOP_GRACE_MS, type SwarmDevnet } from './swarmDevnet.js';
import type { Machine } from './swarmEngines.js';
import { homeFile, swarmFile } from './swarmFiles.js';
import type { RegistryAuth } from './swarmImages.js';
import { mountedFiles, seedVolume } from './swarmVolumes.js';

/** Tells Prometheus's swarm discovery which services are nodes, and where they serve /metrics. */
export const LABEL_METRICS_PORT = 'io.chain-devnet.metrics-port';
const RPC_PORT = CONTAINER_PORTS.rpcPort;
/** Services are DNS names on the overlay network: at most 63 characters. */
const MAX_SERVICE_NAME = 63;

/** A named volume, made with these labels by the engine of the machine where the task first starts. */
export function volumeMount(
  source: string,
  target: string,
  labels: Record<string, string>,
): Docker.MountSettings {
  const options = { Labels: labels } as NonNullable<Docker.MountSettings['VolumeOptions']>;
  return { Type: 'volume', Source: source, Target: target, VolumeOptions: options };
}

/** A service of one replica pinned to `machine`, on the devnet's overlay network. */
export async function createService(
  sd: SwarmDevnet,
  o: {
    readonly what: string;
    readonly container: Docker.ContainerSpec;
    readonly restart: 'none' | 'on-failure';
    readonly machine: Machine;
    /** Published in host mode on `machine`; null: nothing published. */
    readonly port: { readonly target: number; readonly published: number } | null;
    readonly labels?: Record<string, string>;
    readonly auth?: RegistryAuth | undefined;
  },
): Promise<void> {
  await sd.d.createService({
    ...(o.auth === undefined ? {} : { authconfig: o.auth }),
    Name: sd.name(o.what),
    Labels: { ...sd.labels(o.what), ...o.labels },
    TaskTemplate: {
      ContainerSpec: { ...o.container, Labels: sd.labels(o.what) },
      RestartPolicy: { Condition: o.restart },
      Placement: { Constraints: [`node.id==${o.machine.id}`] },
      Networks: [{ Target: sd.name(), Aliases: [o.what] }],
    },
    Mode: { Replicated: { Replicas: 1 } },
    EndpointSpec: {
      Mode: 'dnsrr',
      Ports:
        o.port === null
          ? []
          : [
              {
                Protocol: 'tcp',
                TargetPort: o.port.target,
                PublishedPort: o.port.published,
                PublishMode: 'host',
              },
            ],
    },
  } as Docker.CreateServiceOptions);
}

/**
 * A node's service: one replica, restart policy `none` (a node that is killed or crashes stays
 * down until `start`), pinned to the machine it first runs on, where its volume holds its data;
 * genesis and node.json as swarm configs, its keys as swarm secrets, in that volume's folder.
 */
export async function createNodeService(
  sd: SwarmDevnet,
  l: NodeLaunch,
  progress: Progress,
): Promise<Machine> {
  const name = l.node.name;
  const service = sd.name(name);
  if (service.length > MAX_SERVICE_NAME)
    throw new DevnetError(
      'BAD_FLAG',
      `${name}: the swarm runtime names its service ${service}, longer than the ${MAX_SERVICE_NAME} characters a swarm allows: use a name of at most ${MAX_SERVICE_NAME - sd.name('').length} characters`,
    );
  const plan = await sd.image(progress, l.build);
  const machines = await sd.machines();
  const machine = chooseMachine(
    { index: l.node.index, name, asked: l.placement },
    machines.all,
    plan.usable,
    plan.why,
  );
  // Peers by service name: with dnsrr it resolves to the task's address on the overlay.
  await writeNodeFile(l.home, nodeFileOf(l.node, l.peers, { containers: true, dnsName: (n) => sd.name(n) }));
  const read = (f: string) => readFile(join(l.home, f));
  const [genesis, nodeFile, validatorKey, p2pKey] = await Promise.all([
    swarmFile(sd, 'config', 'genesis', await read('genesis.json')),
    swarmFile(sd, 'config', 'node', await read('node.json'), name),
    swarmFile(sd, 'secret', 'validator-key', await read('validator_key.json'), name),
    swarmFile(sd, 'secret', 'p2p-key', await read('p2p_key'), name),
  ]);
  const container: Docker.ContainerSpec = {
    Image: plan.ref,
    Args: nodeStartArgs(l.node, 'container'),
    Hostname: name,
    Labels: { [VERSION_LABEL]: l.build.version },
    // The machine's engine makes the volume when the first task starts, with these labels.
    // Its store on a tmpfs of its own size (dataDisk.ts): it lives while the task runs.
    Mounts: [
      volumeMount(sd.name(name), CONTAINER_HOME, sd.labels(name)),
      ...(l.node.diskBytes === null ? [] : [dataTmpfsMount(l.node.diskBytes)]),
    ],
    Configs: [
      { File: homeFile('genesis.json', 0o444), ConfigID: genesis.id, ConfigName: genesis.name },
      { File: homeFile('node.json', 0o444), ConfigID: nodeFile.id, ConfigName: nodeFile.name },
    ],
    Secrets: [
      {
        File: homeFile('validator_key.json', 0o400),
        SecretID: validatorKey.id,
        SecretName: validatorKey.name,
      },
      { File: homeFile('p2p_key', 0o400), SecretID: p2pKey.id, SecretName: p2pKey.name },
    ],
    StopSignal: 'SIGTERM',
    StopGracePeriod: STOP_GRACE_MS * 1e6,
  };
  // Restored from an archive: its store and priv-validator state into its volume on that machine first.
  await seedVolume(sd, machine, plan.ref, name, l.home, mountedFiles(container));
  await createService(sd, {
    what: name,
    container,
    // A killed or crashed node stays down until `devnet start`, as on the other runtimes.
    restart: 'none',
    // Its volume (its data) is on this machine: it always runs here.
    machine,
    port: { target: RPC_PORT, published: l.node.rpcPort },
    labels: { [LABEL_METRICS_PORT]: String(RPC_PORT) },
    auth: plan.auth,
  });
  return machine;
}

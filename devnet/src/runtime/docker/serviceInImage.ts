/**
 * A service beside the nodes on the Docker-based runtimes (docker, swarm): chain-market runs from
 * the node image (which holds the chain-market bundle) in place of chain-node; a monitor from its
 * image (monitorImages.ts). Its home is the volume at /data; it listens on every address of its
 * container and reaches the nodes and the other services by the names the docker runtime gives
 * its containers and the swarm runtime its services (devnetName: both resolve on the devnet's
 * network).
 */
import { NODE_V8_FLAGS } from '@chain-devnet/node/builds';
import { CONTAINER_PORTS } from '@chain-devnet/node/testnet';
import type { Layout } from '../../base/layout.js';
import { CONTAINER_HOME } from '../nodeCommand.js';
import type { Progress, ServiceProgram, ServiceReach } from '../runtime.js';
import { devnetName } from './labels.js';
import { grafanaImage, prometheusImage } from './monitorImages.js';
import { MARKET_IN_IMAGE } from './nodeImage.js';

/** How a service in a container of the devnet sees it. */
export function containerReach(layout: Layout): ServiceReach {
  return {
    home: CONTAINER_HOME,
    host: '0.0.0.0',
    rpc: (n) => `http://${devnetName(layout, n.name)}:${CONTAINER_PORTS.rpcPort}`,
    service: (name, port) => `http://${devnetName(layout, name)}:${port}`,
  };
}

/** The image a program runs from, with the entrypoint to use in place of the image's own. */
export type ProgramImage = { readonly image: string; readonly entrypoint: readonly string[] | null };

/** Where a service's program comes from, or why there is none here (a line for people). */
export async function programImage(
  program: ServiceProgram,
  nodeImage: () => Promise<string>,
  progress: Progress,
): Promise<ProgramImage | { readonly note: string }> {
  if (program === 'chain-market')
    return { image: await nodeImage(), entrypoint: ['node', ...NODE_V8_FLAGS, MARKET_IN_IMAGE] };
  const found = program === 'prometheus' ? await prometheusImage(progress) : await grafanaImage(progress);
  return 'note' in found ? found : { image: found.image, entrypoint: null };
}

/** Services run as root: a monitor's image user (nobody, grafana) could not write the volume's /data. */
export const SERVICE_USER = '0';

/**
 * A service beside the nodes (the task market, its worker; runtime.ts ServiceLaunch) on the
 * Docker-based runtimes: the node image (which holds the chain-market bundle) running
 * chain-market instead of chain-node, its home the volume at /data, listening on every address
 * of its container, and reaching the nodes and the other services by the names the docker
 * runtime gives its containers and the swarm runtime its services (devnetName: both resolve on
 * the devnet's network).
 */
import { CONTAINER_PORTS } from '@chain-devnet/node/testnet';
import type { Layout } from '../../layout.js';
import { CONTAINER_HOME } from '../nodeCommand.js';
import type { ServiceLaunch } from '../runtime.js';
import { devnetName } from './labels.js';
import { MARKET_IN_IMAGE } from './nodeImage.js';

/** What the container runs in place of the image's chain-node entrypoint. */
export const SERVICE_ENTRYPOINT: readonly string[] = ['node', MARKET_IN_IMAGE];

/** chain-market's arguments for a service in a container of the devnet. */
export function serviceArgsInContainer(s: ServiceLaunch, layout: Layout): string[] {
  return s.args({
    home: CONTAINER_HOME,
    host: '0.0.0.0',
    rpc: (n) => `http://${devnetName(layout, n.name)}:${CONTAINER_PORTS.rpcPort}`,
    service: (name, port) => `http://${devnetName(layout, name)}:${port}`,
  });
}

/**
 * Names and labels of what the Docker-based runtimes (docker, swarm) make for a devnet: every
 * container, service, network, volume, config and secret is named devnet-<id>[-<what>] and
 * carries io.chain-devnet.devnet=<id> and io.chain-devnet.home=<home>; a node's things also
 * io.chain-devnet.node=<name>. Later commands and `down` find them by these labels.
 */
import type { Layout } from '../../base/layout.js';

export const LABEL_DEVNET = 'io.chain-devnet.devnet';
export const LABEL_HOME = 'io.chain-devnet.home';
export const LABEL_NODE = 'io.chain-devnet.node';
/** A node's container or service: the version it runs (versions/source.ts), for people reading `docker ps`. */
export const VERSION_LABEL = 'io.chain-devnet.version';

/** devnet-<id>, or devnet-<id>-<what> (a node's name, prometheus, …). */
export function devnetName(layout: Layout, what?: string): string {
  return what === undefined ? `devnet-${layout.id}` : `devnet-${layout.id}-${what}`;
}

export function devnetLabels(layout: Layout, node?: string): Record<string, string> {
  return {
    [LABEL_DEVNET]: layout.id,
    [LABEL_HOME]: layout.home,
    ...(node === undefined ? {} : { [LABEL_NODE]: node }),
  };
}

/** The list filter for everything of one devnet. */
export function devnetFilter(layout: Layout): { label: string[] } {
  return { label: [`${LABEL_DEVNET}=${layout.id}`] };
}

/**
 * The `chain-node start` arguments of a devnet node, for every runtime: one place, so that a flag
 * every node needs (--fault-injection, which disconnect/connect rely on) reaches it on all of them.
 */

/** In a container the home is the volume at /data, and the node listens on every address of it. */
export const CONTAINER_HOME = '/data';

export function nodeStartArgs(where: { readonly home: string } | 'container'): string[] {
  const common = ['--fault-injection'];
  if (where === 'container')
    return ['start', '--home', CONTAINER_HOME, '--host', '0.0.0.0', '--p2p-host', '0.0.0.0', ...common];
  return ['start', '--home', where.home, ...common];
}

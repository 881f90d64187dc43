/**
 * Chooses and builds a runtime. `auto` means Docker when an engine answers on its socket within
 * a second, local processes otherwise; the caller says which was chosen and why. Swarm is only
 * ever asked for (--runtime swarm): the engine must be a swarm manager. The packages installed
 * outside this repository run processes only (repo.ts, imageCheckout).
 */
import { DevnetError } from '../base/errors.js';
import type { Layout } from '../base/layout.js';
import { checkoutRoot, imageCheckout } from '../base/repo.js';
import type { Manifest, RuntimeChoice } from '../spec/manifest.js';
import { ProcessRuntime } from './process/provider.js';
import type { Runtime, RuntimeKind } from './runtime.js';

export async function resolveRuntime(choice: RuntimeChoice): Promise<{ kind: RuntimeKind; why: string }> {
  if (choice === 'process') return { kind: 'process', why: 'asked for with --runtime process' };
  if (choice === 'threads') return { kind: 'threads', why: 'asked for with --runtime threads' };
  if (choice === 'auto' && checkoutRoot() === null)
    return { kind: 'process', why: 'installed as a package: the node image is built from a checkout' };
  // Refused before anything is made, not when the image is built.
  imageCheckout();
  // dockerode is loaded only when Docker may be used.
  const { dockerAnswers } = await import('./docker/engine.js');
  const engine = await dockerAnswers();
  if (choice === 'swarm') {
    if (!engine.ok)
      throw new DevnetError(
        'NO_ENGINE',
        `no Docker engine answers (${engine.reason}): the swarm runtime drives a swarm manager's engine (DOCKER_HOST or the local socket)`,
      );
    const { requireSwarmManager } = await import('./swarm/swarmEngines.js');
    return { kind: 'swarm', why: await requireSwarmManager() };
  }
  if (choice === 'docker') {
    if (!engine.ok)
      throw new DevnetError(
        'NO_ENGINE',
        `no Docker engine answers (${engine.reason}): start one (e.g. sudo systemctl start docker, or dockerd &), or use --runtime process`,
      );
    return { kind: 'docker', why: 'asked for with --runtime docker' };
  }
  return engine.ok
    ? { kind: 'docker', why: 'a Docker engine answers' }
    : { kind: 'process', why: `no Docker engine answers (${engine.reason})` };
}

/** The manifest gives the swarm runtime its registry, its machines' engines and placements. */
export async function createRuntime(kind: RuntimeKind, layout: Layout, manifest: Manifest): Promise<Runtime> {
  if (kind === 'process') return new ProcessRuntime(layout);
  if (kind === 'threads') {
    const { ThreadsRuntime } = await import('./threads/provider.js');
    return new ThreadsRuntime(layout);
  }
  if (kind === 'swarm') {
    const { SwarmRuntime } = await import('./swarm/provider.js');
    return new SwarmRuntime(layout, { registry: manifest.registry ?? null, engines: manifest.engines ?? {} });
  }
  const { DockerRuntime } = await import('./docker/provider.js');
  return new DockerRuntime(layout);
}

/**
 * Swarm configs and secrets: how files reach a task on whatever machine runs it (there is no
 * shared folder). Each is made once under a name derived from its content (both are immutable),
 * and carries the devnet's labels, by which `down` removes it.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type Docker from 'dockerode';
import { isConflict } from '../docker/engineErrors.js';
import { CONTAINER_HOME } from '../nodeCommand.js';
import type { SwarmDevnet } from './swarmDevnet.js';

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 12);

export async function swarmFile(
  sd: SwarmDevnet,
  kind: 'config' | 'secret',
  what: string,
  data: Buffer,
  node?: string,
): Promise<{ id: string; name: string }> {
  const name = sd.name(`${what}-${sha(Buffer.concat([Buffer.from(`${node ?? ''}\0`), data]))}`);
  const spec = { Name: name, Labels: sd.labels(node), Data: data.toString('base64') };
  try {
    const made = (await (kind === 'config' ? sd.d.createConfig(spec) : sd.d.createSecret(spec))) as {
      id?: string;
      ID?: string;
    };
    return { id: made.id ?? made.ID ?? '', name };
  } catch (e) {
    if (!isConflict(e)) throw e;
    const found = (await (kind === 'config' ? sd.d.getConfig(name) : sd.d.getSecret(name)).inspect()) as {
      ID: string;
    };
    return { id: found.ID, name };
  }
}

/** Where a file lands in the task's home, readable by `mode`, owned by root (services run as root). */
export function homeFile(path: string, mode: number) {
  return { Name: `${CONTAINER_HOME}/${path}`, UID: '0', GID: '0', Mode: mode };
}

/** Every file under `dir` but its store (data/), as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((f) => f !== 'data' && !f.startsWith('data/'));
}

/**
 * Every file of a service's home (its key, its configuration) as a secret in its task's home,
 * readable by root only (keys are among them); not its store (data/, restored from an archive),
 * which swarmVolumes.ts puts into its volume.
 */
export async function homeSecrets(
  sd: SwarmDevnet,
  service: string,
  home: string,
): Promise<Docker.SecretReference[]> {
  return Promise.all(
    (await filesUnder(home)).map(async (f) => {
      const secret = await swarmFile(sd, 'secret', 'service-file', await readFile(join(home, f)), service);
      return { File: homeFile(f, 0o400), SecretID: secret.id, SecretName: secret.name };
    }),
  );
}

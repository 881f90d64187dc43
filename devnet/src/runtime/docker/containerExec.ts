/**
 * A node's data disk in its container (dataDisk.ts), for the docker and swarm runtimes: a tmpfs
 * mount of the node's size at its data folder, and the filler program run in the container by
 * the image's own `node` (the image has no shell). A container's tmpfs holds while the container
 * runs: a stopped or replaced container's node starts again on an empty one (devnet/README.md,
 * "Disk faults").
 */
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { DATA_DIR, type FillOp, fillArgs, filledOf } from '../dataDisk.js';
import { CONTAINER_HOME } from '../nodeCommand.js';

/** Where a node's store is in its container. */
export const CONTAINER_DATA = `${CONTAINER_HOME}/${DATA_DIR}`;

/** The tmpfs mount of a node's data folder of `bytes` (a container's or a swarm service's mount). */
export function dataTmpfsMount(bytes: number): Docker.MountSettings {
  return {
    Type: 'tmpfs',
    Source: '',
    Target: CONTAINER_DATA,
    TmpfsOptions: { SizeBytes: bytes, Mode: 0o1777 },
  };
}

/** Whether mounts (a container's, a service's) put a tmpfs on the node's data folder. */
export function hasDataTmpfs(mounts: readonly { Type?: string; Target?: string }[] | undefined): boolean {
  return (mounts ?? []).some((m) => m.Type === 'tmpfs' && m.Target === CONTAINER_DATA);
}

/** Runs `argv` in the running container; its output, or an error with it when it fails. */
export async function execIn(c: Docker.Container, argv: string[]): Promise<string> {
  const exec = await c.exec({ Cmd: argv, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  const errs: Buffer[] = [];
  out.on('data', (b: Buffer) => chunks.push(b));
  err.on('data', (b: Buffer) => errs.push(b));
  c.modem.demuxStream(stream, out, err);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const { ExitCode } = await exec.inspect();
  if (ExitCode !== 0)
    throw new Error(
      `${argv[0]} in the container exited with ${ExitCode}: ${Buffer.concat(errs).toString().trim()}`,
    );
  return Buffer.concat(chunks).toString();
}

/** The filler program in the node's container: whether the filler is there now. */
export async function fillInContainer(c: Docker.Container, op: FillOp): Promise<boolean> {
  return filledOf(await execIn(c, ['node', ...fillArgs(CONTAINER_DATA, op)]));
}

/**
 * devnet.json: what a running devnet is, so that every later command (status, kill, add, down…)
 * can rebuild it. It holds the inputs of the spec, not the spec: keys and genesis are derived
 * again from them, deterministically.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { BASE_PROTOCOL_VERSION } from '@chain-devnet/node/chain';
import { DevnetError } from '../base/errors.js';
import type { Layout } from '../base/layout.js';
import type { RuntimeKind } from '../runtime/runtime.js';
import type { SpecInput } from '../spec/networkSpec.js';

export interface AddedNode {
  readonly name: string;
  readonly index: number;
  /** Wei staked by `devnet add --stake` (a string), or null for a non-validator node. */
  readonly stake: string | null;
  /** `devnet add --placement MACHINE` (multi-machine runtimes). */
  readonly placement?: string;
  /** `devnet add --state-sync`: it joined from a snapshot (absent: by block sync). */
  readonly stateSync?: boolean;
}

export interface DevnetState {
  readonly version: 1;
  readonly runtime: RuntimeKind;
  readonly input: SpecInput;
  readonly added: readonly AddedNode[];
  readonly createdAt: string;
  readonly monitoring: { prometheus: string | null; grafana: string | null; notes: readonly string[] };
  /** The task market's URL from this machine, once `up --market` knows it. */
  readonly market?: string;
  /**
   * `stopped` after `devnet stop` of the whole devnet or `down --keep-data`: `up` and `start`
   * resume it. Absent (a devnet.json written before this field): running.
   */
  readonly status?: DevnetStatus;
  /**
   * The version each node runs since `devnet upgrade` (or the supervisor) moved it, by name, in
   * its pinned form (versions/source.ts); a node not listed runs the manifest's (default checkout).
   */
  readonly versions?: Readonly<Record<string, string>>;
  /** `devnet up --fork`: the network it was forked from; its genesis is in fork-genesis.json. */
  readonly fork?: ForkRecord;
}

/** What a forked devnet records of its source (devnet.json's `fork`, shown by `devnet status`). */
export interface ForkRecord {
  readonly url: string;
  readonly height: number;
  readonly source_chain_id: string;
  /** The hash of block `height` on the source. */
  readonly block_hash: string;
  /** The hash of the snapshot content the fork started from. */
  readonly snapshot_hash: string;
  /** The fork's genesis supply: what the source held, what the devnet added (decimal wei). */
  readonly supply: { readonly carried: string; readonly added: string };
}

export type DevnetStatus = 'running' | 'stopped';

/** What devnet.json says of the devnet: running unless stopped as a whole. */
export const statusOf = (s: DevnetState): DevnetStatus => s.status ?? 'running';

export async function readState(layout: Layout): Promise<DevnetState | null> {
  let text: string;
  try {
    text = await readFile(layout.stateFile, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const s = JSON.parse(text) as DevnetState;
    if (s.version !== 1) throw new Error(`version ${String(s.version)} is not known`);
    return withStoredDefaults(s);
  } catch (e) {
    throw new DevnetError(
      'NO_DEVNET',
      `${layout.stateFile} is unreadable (${(e as Error).message}): remove ${layout.home} by hand`,
    );
  }
}

/**
 * A devnet.json as this version reads it. One written before `up` pinned the genesis protocol
 * version has none in its manifest: its genesis was made at 1.0.0 (the generator's default then),
 * and rebuilding it at today's default would give its added nodes another genesis.
 */
export function withStoredDefaults(s: DevnetState): DevnetState {
  if (s.input.manifest.protocol_version !== undefined) return s;
  return {
    ...s,
    input: { ...s.input, manifest: { ...s.input.manifest, protocol_version: BASE_PROTOCOL_VERSION } },
  };
}

export async function requireState(layout: Layout): Promise<DevnetState> {
  const s = await readState(layout);
  if (s === null)
    throw new DevnetError(
      'NO_DEVNET',
      `no devnet in ${layout.home}: start one with devnet up (or pass --home)`,
    );
  return s;
}

/** Written to a temporary file and renamed, so a crash never leaves half a state file. */
export async function writeState(layout: Layout, s: DevnetState): Promise<void> {
  const tmp = `${layout.stateFile}.tmp`;
  await writeFile(tmp, `${JSON.stringify(s, null, 2)}\n`);
  await rename(tmp, layout.stateFile);
}

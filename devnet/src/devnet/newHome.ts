/**
 * A new devnet's home, written by `up` once every refusal has passed (nothing of it exists before):
 * devnet.json (the spec's inputs, the runtime, no node added yet), a fork's genesis when it is
 * one (fork-genesis.json: its spec cannot be built again without it) and the funded accounts'
 * keys (accounts.json, readable by its owner only).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { DevnetError } from '../base/errors.js';
import type { Layout } from '../base/layout.js';
import type { Fork } from '../fork/spec.js';
import type { RuntimeKind } from '../runtime/runtime.js';
import type { NetworkSpec, SpecInput } from '../spec/networkSpec.js';
import { type DevnetState, readState, writeState } from '../state/devnetState.js';

/** Writes the home and returns the state it recorded. */
export async function writeNewHome(
  layout: Layout,
  runtime: RuntimeKind,
  input: SpecInput,
  spec: NetworkSpec,
  fork: Fork | undefined,
): Promise<DevnetState> {
  // `up` resumes a devnet it finds at its start; this catches one made since (another `up`).
  if ((await readState(layout)) !== null)
    throw new DevnetError(
      'ALREADY_UP',
      `a devnet already lives in ${layout.home}: see devnet status, or devnet down first (or pass another --home)`,
    );
  await mkdir(layout.home, { recursive: true });
  if (fork !== undefined)
    await writeFile(layout.forkGenesisFile, `${JSON.stringify(fork.genesis, null, 2)}\n`);
  const state: DevnetState = {
    version: 1,
    runtime,
    input,
    added: [],
    createdAt: new Date().toISOString(),
    monitoring: { prometheus: null, grafana: null, notes: [] },
    status: 'running',
    ...(fork === undefined ? {} : { fork: fork.record }),
  };
  await writeState(layout, state);
  await writeFile(
    layout.accountsFile,
    `${JSON.stringify(
      spec.accounts.map((a) => ({ name: a.name, ...a.key, balance: a.balance.toString() })),
      null,
      2,
    )}\n`,
    { mode: 0o600 },
  );
  return state;
}

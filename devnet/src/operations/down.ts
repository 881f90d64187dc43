/**
 * `devnet down`, and the testkit's teardown of what it started: the panel first (a host process
 * on every runtime, outside the runtime's view; it would otherwise see its devnet vanish under
 * it), then everything the runtime made for the devnet.
 */
import type { Layout } from '../base/layout.js';
import { stopPanel } from '../panel/process.js';
import type { Runtime } from '../runtime/runtime.js';
import { readState, writeState } from '../state/devnetState.js';
import { stopSupervisor } from '../supervisor/process.js';

/** What was removed, a line each. Files kept: devnet.json says `stopped`, so `up` resumes it. */
export async function takeDown(layout: Layout, runtime: Runtime, keepData: boolean): Promise<string[]> {
  const removed = [
    ...(await stopPanel(layout)),
    ...(await stopSupervisor(layout)),
    ...(await runtime.teardown(keepData)),
  ];
  const state = keepData ? await readState(layout) : null;
  if (state !== null) await writeState(layout, { ...state, status: 'stopped' });
  return removed;
}

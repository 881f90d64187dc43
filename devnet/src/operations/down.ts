/**
 * `devnet down`, and the testkit's teardown of what it started: the panel first (a host process
 * on every runtime, outside the runtime's view; it would otherwise see its devnet vanish under
 * it), then everything the runtime made for the devnet.
 */
import type { Layout } from '../layout.js';
import { stopPanel } from '../panel/process.js';
import type { Runtime } from '../runtime/runtime.js';

/** What was removed, a line each. */
export async function takeDown(layout: Layout, runtime: Runtime, keepData: boolean): Promise<string[]> {
  return [...(await stopPanel(layout)), ...(await runtime.teardown(keepData))];
}

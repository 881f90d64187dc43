/**
 * A node that exits on the version `devnet upgrade` put it on, before it is back in consensus:
 * seen at once (its exit code, as `devnet status` shows it), put back as it was (on its previous
 * version, started again if it ran), and said in one error naming the node, both versions, the
 * exit code and the node's own reason. Before (issue 39) an upgrade onto a version that refuses
 * the store (exit code 4) waited out the progress bound, about 37 s, said only TIMEOUT, and left
 * the node stopped on a version it cannot run.
 */

import { waitFor } from '@chain-devnet/kit/wait';
import { UPGRADE_HALT_EXIT_CODE, VERSION_REFUSED_EXIT_CODE } from '@chain-devnet/node/chain';
import { DevnetError } from '../base/errors.js';
import type { Devnet } from '../devnet/devnet.js';
import { lastWords } from '../runtime/nodeLog.js';
import type { NodeRunState } from '../runtime/runtime.js';

/** The node ended by itself (its exit code) while the upgrade waited for it. */
export class NodeExited extends Error {
  override readonly name = 'NodeExited';
  constructor(
    readonly node: string,
    readonly exitCode: number,
  ) {
    super(`${node} exited with code ${exitCode}`);
  }
}

/** What an upgrade that failed so was doing. */
export interface FailedUpgrade {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  /** The node's run state before the upgrade. */
  readonly was: NodeRunState;
  readonly exitCode: number;
}

/** What chain-node's documented exit codes mean (chain-node start --help). */
function meaning(code: number): string {
  if (code === VERSION_REFUSED_EXIT_CODE) return ': it refuses a store of a protocol version it does not run';
  if (code === UPGRADE_HALT_EXIT_CODE) return ': it halted for an upgrade plan it has no migration for';
  return '';
}

/** Polls the node until it answers (its height) or exits again (its exit code), within `boundMs`. */
async function answersOrExits(d: Devnet, name: string, boundMs: number) {
  return waitFor(
    `${name} to answer`,
    boundMs,
    async () => {
      const [me] = (await d.probe()).filter((p) => p.status.name === name);
      const s = me?.status;
      if (s?.up) return { height: s.height ?? 0 };
      return s?.state === 'stopped' && s.exitCode !== null ? { exitCode: s.exitCode } : null;
    },
    { pollMs: 250 },
  ).catch(() => null);
}

/**
 * The node put back on `from` as it was (running again if it ran before; left stopped if it was
 * stopped, a halted node), devnet.json saying `from`; the error to throw, which says how it was
 * left and what to do.
 */
export async function undoUpgrade(d: Devnet, u: FailedUpgrade): Promise<DevnetError> {
  const why = await lastWords(d.runtime, u.name);
  const said = `${u.name} did not come back on ${u.to} (from ${u.from}): chain-node exited with code ${u.exitCode}${meaning(u.exitCode)}${why === null ? '' : `; its log: ${why}`}.`;
  if (u.was !== 'running' && u.was !== 'paused') {
    await d.saveVersion(u.name, u.from);
    return new DevnetError(
      'NODE_START',
      `${said} It is left stopped, as it was before the upgrade, on ${u.from} (devnet.json says so); devnet upgrade ${u.name} --to VERSION with a version that runs its store.`,
    );
  }
  await d.runtime.node(u.name).replace(await d.launch(d.node(u.name), u.from));
  await d.saveVersion(u.name, u.from);
  const back = await answersOrExits(d, u.name, d.progressBound(1));
  if (back !== null && 'height' in back)
    return new DevnetError(
      'NODE_START',
      `${said} It is back on ${u.from}, running (at height ${back.height}), as before the upgrade (devnet.json says ${u.from}).`,
    );
  const again =
    back === null
      ? 'does not answer yet (devnet status shows it)'
      : `exited there too, with code ${back.exitCode} (its log: ${(await lastWords(d.runtime, u.name)) ?? 'empty'}): it is left stopped`;
  return new DevnetError(
    'NODE_START',
    `${said} It was started again on ${u.from} and ${again}; devnet.json says ${u.from}; see devnet logs ${u.name}.`,
  );
}

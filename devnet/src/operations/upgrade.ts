/**
 * `devnet upgrade NODE --to VERSION` and `devnet upgrade --all --to VERSION` (the testkit's
 * node.upgrade, the scenario's `upgrade` step, the auto-upgrade supervisor): a node restarted on
 * another version with its data, through its runtime's handle (NodeHandle.replace: a graceful
 * stop, the binary or image swapped, a start), then a wait until it is back in consensus. Rolling:
 * one node after another, each back before the next goes down, so the chain never loses more
 * than one validator's power to the upgrade.
 */
import { TimeoutError, waitFor } from '@chain-devnet/kit/wait';
import { DevnetError } from '../base/errors.js';
import type { Devnet } from '../devnet/devnet.js';
import type { Progress } from '../runtime/runtime.js';
import { pinVersion } from '../versions/resolve.js';
import { NodeExited, undoUpgrade } from './upgradeExited.js';

export interface Upgraded {
  readonly node: string;
  readonly from: string;
  readonly to: string;
  /** The height it answered at once back in consensus. */
  readonly height: number;
}

/**
 * Back in consensus: the node answers at a height above the highest its peers had when it came
 * back (its height advances with the others', not only catching up), with at least one peer
 * connected (chain_p2p_peers), within the devnet's progress bound. A node that exits meanwhile
 * (a version that refuses its store exits with 4 at once) ends the wait at once: NodeExited.
 */
export async function waitBackInConsensus(d: Devnet, name: string): Promise<number> {
  const others = (await d.status()).filter((n) => n.name !== name && n.up);
  const top = Math.max(0, ...others.map((n) => n.height ?? 0));
  let seen = 'not answering';
  let back: { height: number } | { exitCode: number };
  try {
    back = await waitFor(
      `${name} back in consensus (above height ${top}, peers connected)`,
      d.progressBound(4),
      async () => {
        const [me] = (await d.probe()).filter((p) => p.status.name === name);
        const s = me?.status;
        if (s?.state === 'stopped' && s.exitCode !== null) return { exitCode: s.exitCode };
        seen = s?.up ? `height ${s.height}, ${s.peers} peers` : `${s?.state ?? 'unknown'}, not answering`;
        const wantPeers = others.length > 0 ? 1 : 0;
        return s?.up && (s.height ?? 0) > top && (s.peers ?? 0) >= wantPeers
          ? { height: s.height ?? 0 }
          : false;
      },
      { pollMs: 250, seen: () => seen },
    );
  } catch (e) {
    if (!(e instanceof TimeoutError)) throw e;
    throw new DevnetError('TIMEOUT', `${e.message}: see devnet logs ${name}`);
  }
  if ('exitCode' in back) throw new NodeExited(name, back.exitCode);
  return back.height;
}

/**
 * One node onto `to` (already pinned), its data kept; recorded in devnet.json; back in consensus.
 * If it exits on `to` instead, it is put back as it was on its version before (upgradeExited.ts)
 * and the error says so.
 */
export async function upgradeNodeTo(
  d: Devnet,
  name: string,
  to: string,
  progress: Progress,
): Promise<Upgraded> {
  const n = d.node(name);
  const from = d.versionOf(name);
  const handle = d.runtime.node(name);
  const was = await handle.state();
  const launch = await d.launch(n, to);
  progress(`${name}: ${from} -> ${to}`);
  d.events.note('upgrade', `upgrade ${name} ${from} -> ${to}`, { node: name, from, to });
  let height: number;
  try {
    await handle.replace(launch);
    await d.saveVersion(name, to);
    height = await waitBackInConsensus(d, name);
  } catch (e) {
    // A swarm's start fails when its task ended before it was seen running: the same exit.
    const exitCode = e instanceof NodeExited ? e.exitCode : await handle.exitCode().catch(() => null);
    if (exitCode === null) throw e;
    progress(`${name}: exited on ${to} with code ${exitCode}; putting it back on ${from}`);
    throw await undoUpgrade(d, { name, from, to, was, exitCode });
  }
  progress(`${name}: back in consensus at height ${height}`);
  return { node: name, from, to, height };
}

/** `devnet upgrade`: the named nodes (every node with --all) one after another onto VERSION. */
export async function upgrade(
  d: Devnet,
  names: readonly string[],
  version: string,
  progress: Progress,
): Promise<Upgraded[]> {
  for (const name of names) d.node(name);
  const to = await pinVersion(version, '--to');
  // Found or built (a git ref) before the first node goes down.
  await d.build(to);
  const done: Upgraded[] = [];
  for (const name of names) {
    try {
      done.push(await upgradeNodeTo(d, name, to, progress));
    } catch (e) {
      // A rolling upgrade stops at the first node that does not come back: said, which went before.
      if (!(e instanceof DevnetError) || names.length === 1) throw e;
      const before = done.length === 0 ? 'none' : done.map((u) => u.node).join(', ');
      const after = names.slice(done.length + 1);
      throw new DevnetError(
        e.code,
        `${e.message} Upgraded to ${to} before it: ${before}; not touched: ${after.length === 0 ? 'none' : after.join(', ')}.`,
      );
    }
  }
  return done;
}

/**
 * The chain control of a devnet's nodes (`devnet chain …`, `devnet clock …`, the testkit's
 * ChainTime), written once for every runtime: the devnet owns it as <home>/chain_control.json in
 * each node's home on this machine (the node's form: docs/PROTOCOL.md, "Chain control"), which
 * the runtime puts where the node reads its home (NodeHandle.copyHomeFile; the process and threads
 * runtimes read the home itself). Every node's file holds the same chain-wide control (hold,
 * mining target, block time, chain-time offset) and its own clock skew. Being in the home, it is
 * in force again when the node restarts, is upgraded or restored; a node added gets the chain-wide
 * control of the others when its home is made (seed).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHAIN_CONTROL_FILE,
  type ChainControl,
  formatChainControl,
  NO_CHAIN_CONTROL,
  parseChainControl,
} from '@chain-devnet/node/testnet';
import type { Layout } from '../base/layout.js';
import type { NodeHandle } from './runtime.js';

export { CHAIN_CONTROL_FILE, type ChainControl, NO_CHAIN_CONTROL };

/** What every node's file holds alike: the control of the chain, without a node's own skew. */
export type ChainWide = Omit<ChainControl, 'clockSkewMs'>;

export class ChainControlFiles {
  constructor(
    private readonly layout: Layout,
    private readonly runtime: { node(name: string): Pick<NodeHandle, 'copyHomeFile'> },
  ) {}

  /** The control in `name`'s file (none when its home has none, or an unreadable one). */
  async of(name: string): Promise<ChainControl> {
    const text = await readFile(join(this.layout.nodeHome(name), CHAIN_CONTROL_FILE), 'utf8').catch(
      () => null,
    );
    if (text === null) return NO_CHAIN_CONTROL;
    const parsed = parseChainControl(text);
    return parsed.ok ? parsed.control : NO_CHAIN_CONTROL;
  }

  /** Writes `control` as `name`'s file and hands it to the node. */
  async write(name: string, control: ChainControl): Promise<void> {
    const home = this.layout.nodeHome(name);
    await writeFile(join(home, CHAIN_CONTROL_FILE), formatChainControl(control));
    await this.runtime.node(name).copyHomeFile(home, CHAIN_CONTROL_FILE);
  }

  /** The chain-wide part of `names`' files: the first one's that has a file (all are alike). */
  async chainWide(names: readonly string[]): Promise<ChainWide> {
    for (const n of names) {
      const text = await readFile(join(this.layout.nodeHome(n), CHAIN_CONTROL_FILE), 'utf8').catch(
        () => null,
      );
      if (text === null) continue;
      const parsed = parseChainControl(text);
      if (parsed.ok) return withoutSkew(parsed.control);
    }
    return withoutSkew(NO_CHAIN_CONTROL);
  }

  /**
   * A new home's file (before the node's first start): the chain-wide control of `others` and the
   * node's own skew; none written when both are nothing.
   */
  async seed(name: string, others: readonly string[], clockSkewMs: number): Promise<void> {
    const wide = await this.chainWide(others.filter((n) => n !== name));
    const control: ChainControl = { ...wide, clockSkewMs };
    if (JSON.stringify(control) === JSON.stringify(NO_CHAIN_CONTROL)) return;
    await writeFile(join(this.layout.nodeHome(name), CHAIN_CONTROL_FILE), formatChainControl(control));
  }
}

function withoutSkew(c: ChainControl): ChainWide {
  const { clockSkewMs: _skew, ...wide } = c;
  return wide;
}

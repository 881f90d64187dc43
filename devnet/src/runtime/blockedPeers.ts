/**
 * Disconnect, connect and partition through the node's fault injection: each node started with
 * --fault-injection refuses the peers <home>/blocked_peers.json says (re-read twice a second): a
 * node cut off refuses every peer ({"allow": []}), a node in a partition every peer but those on
 * its side, any other node the nodes cut off (partition.ts). What is in force lives on this machine: a mark in the home of each node cut off, and
 * the partition's groups in layout.partitionFile. After any change every node's list is written
 * again from all of it (partition.ts says who refuses whom), so a connect never undoes a
 * partition's refusal nor a heal a disconnect's. These are the faults of every runtime, written
 * once: a runtime only puts each list where its node reads its home (NodeHandle.copyHomeFile)
 * and does what else it does to cut a node off (NodeHandle.cutOff: docker's network detach).
 */
import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BLOCKED_PEERS_FILE, writeBlockedPeers } from '@chain-devnet/node/testnet';
import { DevnetError } from '../base/errors.js';
import type { Layout } from '../base/layout.js';
import { type Groups, refusedBy } from './partition.js';
import type { NodeHandle, Noted, PeerInfo } from './runtime.js';

/** What the faults need of a runtime: each node's handle. */
export interface FaultTarget {
  node(name: string): Pick<NodeHandle, 'copyHomeFile' | 'cutOff'>;
}

export { BLOCKED_PEERS_FILE };

function known(name: string, all: readonly PeerInfo[]): void {
  if (!all.some((p) => p.name === name)) throw new DevnetError('UNKNOWN_NODE', `no node named ${name}`);
}

export class BlockedPeers {
  constructor(
    private readonly layout: Layout,
    private readonly runtime: FaultTarget,
    /** Told each partition made or healed (the devnet's timeline, timeline/events.ts). */
    private readonly noted: Noted = () => undefined,
  ) {}

  file(name: string): string {
    return join(this.layout.nodeHome(name), BLOCKED_PEERS_FILE);
  }

  /** Marks a node cut off by disconnect (the others' lists name it too, but they are not cut off). */
  private mark(name: string): string {
    return join(this.layout.nodeHome(name), 'disconnected');
  }

  async disconnect(name: string, all: readonly PeerInfo[]): Promise<void> {
    known(name, all);
    await this.runtime.node(name).cutOff(true);
    await writeFile(this.mark(name), '');
    await this.writeAll(all);
  }

  async connect(name: string, all: readonly PeerInfo[]): Promise<void> {
    known(name, all);
    await this.runtime.node(name).cutOff(false);
    await rm(this.mark(name), { force: true });
    await this.writeAll(all);
  }

  /** Puts the groups in force (null heals). */
  async partition(groups: Groups | null, all: readonly PeerInfo[]): Promise<void> {
    for (const g of groups ?? []) for (const name of g) known(name, all);
    this.noted(
      groups === null ? 'partition healed' : `partition ${groups.map((g) => `[${g.join(', ')}]`).join(' ')}`,
      groups === null ? {} : { groups },
    );
    if (groups === null) await rm(this.layout.partitionFile, { force: true });
    else await writeFile(this.layout.partitionFile, `${JSON.stringify(groups)}\n`);
    await this.writeAll(all);
  }

  async isDisconnected(name: string): Promise<boolean> {
    return access(this.mark(name)).then(
      () => true,
      () => false,
    );
  }

  private async readPartition(): Promise<Groups | null> {
    try {
      return JSON.parse(await readFile(this.layout.partitionFile, 'utf8')) as string[][];
    } catch {
      return null;
    }
  }

  /** Every node's list from what is in force: the nodes cut off and the partition's groups. */
  private async writeAll(all: readonly PeerInfo[]): Promise<void> {
    const groups = await this.readPartition();
    const cut = new Set<string>();
    for (const p of all) if (await this.isDisconnected(p.name)) cut.add(p.name);
    for (const me of all) {
      await writeBlockedPeers(this.layout.nodeHome(me.name), refusedBy(me.name, all, cut, groups));
      await this.runtime.node(me.name).copyHomeFile(this.layout.nodeHome(me.name), BLOCKED_PEERS_FILE);
    }
  }
}

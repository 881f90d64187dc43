/**
 * Disconnect and connect through the node's fault injection: each node started with
 * --fault-injection refuses the peer ids listed in <home>/blocked_peers.json (re-read twice a
 * second). Cutting a node off writes every other peer into its list and it into every other
 * node's list, so neither side dials nor accepts; its RPC is untouched. The lists and the mark of
 * a node cut off live in the node's home on this machine (layout.nodeHome); a runtime whose nodes
 * read their home elsewhere copies each list there when it changes (`onWrite`).
 */
import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DevnetError } from '../errors.js';
import type { Layout } from '../layout.js';
import type { PeerInfo } from './runtime.js';

export const BLOCKED_PEERS_FILE = 'blocked_peers.json';

export class BlockedPeers {
  constructor(
    private readonly layout: Layout,
    /** Called with a node's name and the list's text after its list changed on this machine. */
    private readonly onWrite: (name: string, text: string) => Promise<void> = async () => undefined,
  ) {}

  file(name: string): string {
    return join(this.layout.nodeHome(name), BLOCKED_PEERS_FILE);
  }

  /** Marks a node cut off by disconnect (the others' lists name it too, but they are not cut off). */
  private mark(name: string): string {
    return join(this.layout.nodeHome(name), 'disconnected');
  }

  private async read(name: string): Promise<string[]> {
    try {
      const ids = JSON.parse(await readFile(this.file(name), 'utf8')) as unknown;
      return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  /** The list's text as the node reads it. */
  async text(name: string): Promise<string> {
    return `${JSON.stringify(await this.read(name))}\n`;
  }

  private async write(name: string, ids: readonly string[]): Promise<void> {
    const text = `${JSON.stringify([...new Set(ids)].sort())}\n`;
    await writeFile(this.file(name), text);
    await this.onWrite(name, text);
  }

  private split(name: string, all: readonly PeerInfo[]): { me: PeerInfo; others: PeerInfo[] } {
    const me = all.find((p) => p.name === name);
    if (me === undefined) throw new DevnetError('UNKNOWN_NODE', `no node named ${name}`);
    return { me, others: all.filter((p) => p.name !== name) };
  }

  async disconnect(name: string, all: readonly PeerInfo[]): Promise<void> {
    const { me, others } = this.split(name, all);
    await this.write(
      name,
      others.map((p) => p.peerId),
    );
    for (const o of others) await this.write(o.name, [...(await this.read(o.name)), me.peerId]);
    await writeFile(this.mark(name), '');
  }

  async connect(name: string, all: readonly PeerInfo[]): Promise<void> {
    const { me, others } = this.split(name, all);
    await this.write(name, []);
    await rm(this.mark(name), { force: true });
    for (const o of others)
      await this.write(
        o.name,
        (await this.read(o.name)).filter((id) => id !== me.peerId),
      );
  }

  async isDisconnected(name: string): Promise<boolean> {
    return access(this.mark(name)).then(
      () => true,
      () => false,
    );
  }
}

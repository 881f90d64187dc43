/**
 * Network conditions through the node's fault injection: each node started with --fault-injection
 * follows <home>/net_conditions.json (re-read twice a second; docs/PROTOCOL.md, "Network
 * conditions"). The devnet owns them: what is in force lives on this machine in layout.netFile
 * (net/netState.ts, in node names), with the zones of the manifest unless `devnet zones` replaced
 * them; after any change every node's file is written again from all of it (net/compose.ts), and a
 * node's own before each of its starts (Devnet.launch: a restart, an upgrade, a restore, a node
 * added), so conditions survive what a node goes through. Written once for every runtime: a
 * runtime only puts the file where its node reads its home (NodeHandle.copyHomeFile).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatNetConditions, NET_CONDITIONS_FILE, type NetConditions } from '@chain-devnet/node/testnet';
import { DevnetError } from '../base/errors.js';
import type { Layout } from '../base/layout.js';
import { conditionsOf } from '../net/compose.js';
import { type NodeNetJson, namedConditions } from '../net/named.js';
import { formatNetState, type NetState, NO_NET, parseNetState } from '../net/netState.js';
import type { ZoneSetup } from '../net/zones.js';
import type { FaultTarget } from './blockedPeers.js';
import type { Noted, PeerInfo } from './runtime.js';

export { NET_CONDITIONS_FILE };

export class NetControl {
  constructor(
    private readonly layout: Layout,
    private readonly runtime: Pick<FaultTarget, 'node'>,
    /** The manifest's zones (null: none). */
    private readonly manifestZones: () => ZoneSetup | null,
    /** Told each change of the conditions in force (the devnet's timeline, timeline/events.ts). */
    private readonly noted: Noted = () => undefined,
  ) {}

  /** What is in force (none when nothing was ever set); a file edited wrong is refused, naming its field. */
  async read(all: readonly PeerInfo[]): Promise<NetState> {
    let text: string;
    try {
      text = await readFile(this.layout.netFile, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return NO_NET;
      throw e;
    }
    const parsed = parseNetState(text, (n) => all.some((p) => p.name === n));
    if (!parsed.ok) throw new DevnetError('BAD_FLAG', `${this.layout.netFile}: ${parsed.error}`);
    return parsed.state;
  }

  /** The zones in force: those `devnet zones` set, else the manifest's. */
  zones(s: NetState): ZoneSetup | null {
    return s.zones ?? this.manifestZones();
  }

  /** Changes what is in force and writes every node's file again; the new state. */
  async change(all: readonly PeerInfo[], how: (s: NetState) => NetState): Promise<NetState> {
    const next = how(await this.read(all));
    this.noted('network conditions changed', { conditions: JSON.parse(formatNetState(next)) as unknown });
    await writeFile(this.layout.netFile, formatNetState(next));
    await this.applyAll(all, next);
    return next;
  }

  /** Each node's conditions in force as people read them (peers by name), by name. */
  async named(all: readonly PeerInfo[]): Promise<Record<string, NodeNetJson>> {
    const s = await this.read(all);
    return Object.fromEntries(all.map((p) => [p.name, namedConditions(p.name, s, this.zones(s), all)]));
  }

  /** Each node's conditions now, by name. */
  async conditions(all: readonly PeerInfo[]): Promise<Map<string, NetConditions>> {
    const s = await this.read(all);
    return new Map(all.map((p) => [p.name, conditionsOf(p.name, s, this.zones(s), all)]));
  }

  /** Writes every node's file (a node added: the others learn its links too). */
  async applyAll(all: readonly PeerInfo[], s?: NetState): Promise<void> {
    const state = s ?? (await this.read(all));
    for (const p of all) await this.write(p.name, all, state);
  }

  /** Writes one node's file and puts it where the node reads its home (before a start too). */
  async write(name: string, all: readonly PeerInfo[], s?: NetState): Promise<void> {
    const state = s ?? (await this.read(all));
    const home = this.layout.nodeHome(name);
    const text = formatNetConditions(conditionsOf(name, state, this.zones(state), all));
    await mkdir(home, { recursive: true });
    const before = await readFile(join(home, NET_CONDITIONS_FILE), 'utf8').catch(() => null);
    if (before !== text) await writeFile(join(home, NET_CONDITIONS_FILE), text);
    await this.runtime.node(name).copyHomeFile(home, NET_CONDITIONS_FILE);
  }
}

/**
 * Bootstrap peers are persistent peers (CometBFT's persistent_peers): every REDIAL_MS or so a node
 * dials those it was connected to and has lost, and a few of those it never reached. libp2p's
 * bootstrap dials them once, at start (and those first dials are left to it: the first pass comes
 * 10-15 s later). A connection lost at start-up used to stay lost until kad-dht's refresh five
 * minutes later dialled every missing peer of every node at once, and those handshakes cost
 * slots; a peer that restarted was not dialled again by the nodes it did not list itself.
 */

import type { Logger } from '@chain-devnet/kit/log';
import type { Multiaddr } from '@multiformats/multiaddr';

/**
 * How often a node dials the bootstrap peers it has lost (plus up to half again, at random), and
 * how long each dial may take: handshakes take seconds while 21 nodes start on 2 cores, and a
 * dial cut short wastes the work done on both sides.
 */
const REDIAL_MS = 10_000;
const REDIAL_TIMEOUT_MS = 10_000;
/** Bootstrap peers never reached that a pass dials. */
const NEW_PEER_DIALS_PER_PASS = 2;

export interface BootstrapPeer {
  readonly addr: Multiaddr;
  readonly id: string;
}

export interface RedialHost {
  dial(addr: Multiaddr, signal: AbortSignal): Promise<void>;
  /** The peers connected now. */
  connected(): string[];
  /** Peers not to dial: refused (fault injection) or of an incompatible version. */
  excluded(peer: string): boolean;
  readonly logger: Logger;
}

export class BootstrapRedial {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Peers this node has been connected to: the bootstrap peers among them are redialled when lost. */
  private readonly everConnected = new Set<string>();
  /** Bootstrap peers with a dial in flight. */
  private readonly dialling = new Set<string>();
  /** Bootstrap peers whose failed redial was logged at info since they were last reached. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly peers: readonly BootstrapPeer[],
    private readonly host: RedialHost,
  ) {}

  /** A peer connected (any peer: a bootstrap peer among them is one to dial again once lost). */
  connected(peer: string): void {
    this.everConnected.add(peer);
  }

  start(): void {
    if (this.stopped || this.peers.length === 0) return;
    // Jittered, so that nodes started together do not dial together.
    this.timer = setTimeout(
      () => {
        this.pass();
        this.start();
      },
      REDIAL_MS * (1 + Math.random() / 2),
    );
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }

  /**
   * All at once, each with its own deadline, and the next pass on time whatever this one's dials
   * do: a dial that hangs (a peer's name resolves to an address that drops packets, as a Docker
   * container's does on the network it shares with its peers for published ports while its p2p
   * network is detached) must not hold back the next. One at a time, a node cut off from its
   * network spent 10 s per lost peer in each pass; waiting for a pass's slowest dial still put up
   * to 10 s more before the next pass, after the network came back. A peer whose dial is still
   * in flight is not dialled twice; an excluded one is not dialled.
   *
   * Peers never reached are dialled too, NEW_PEER_DIALS_PER_PASS of them a pass (picked at
   * random). When a whole network starts at once, a node's first dials can fail (a container's
   * name resolves only once it runs) while the peers' dials to it were made before it listened;
   * on Docker libp2p did not dial those again, and an added node resumed with its devnet kept one
   * peer of four for good (and none, in CI, so that it never caught up). A few a pass: a first
   * version that dialled every peer never reached, with 3 s dials, made 21 validators fail to
   * start (docs/BENCHMARKS.md).
   */
  private pass(): void {
    if (this.stopped) return;
    const connected = new Set(this.host.connected());
    const missing = this.peers.filter(
      (peer) => !connected.has(peer.id) && !this.host.excluded(peer.id) && !this.dialling.has(peer.id),
    );
    const lost = missing.filter((peer) => this.everConnected.has(peer.id));
    const neverReached = missing.filter((peer) => !this.everConnected.has(peer.id));
    for (let i = neverReached.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [neverReached[i], neverReached[j]] = [neverReached[j]!, neverReached[i]!];
    }
    for (const peer of [...lost, ...neverReached.slice(0, NEW_PEER_DIALS_PER_PASS)]) {
      this.dialling.add(peer.id);
      void this.dial(peer).finally(() => this.dialling.delete(peer.id));
    }
  }

  /**
   * Dials `peer` once, within REDIAL_TIMEOUT_MS; a failure is logged, never thrown. The first
   * failure since the peer was last reached is logged at info, with why: a node left without
   * peers (an upgraded node in CI that met none for 37 s) said nothing of it at the default level;
   * the next failures, every 10–15 s, at debug.
   */
  async dial(peer: BootstrapPeer): Promise<void> {
    const addr = peer.addr.toString();
    await this.host.dial(peer.addr, AbortSignal.timeout(REDIAL_TIMEOUT_MS)).then(
      () => {
        this.reported.delete(peer.id);
        this.host.logger.debug('redialled a bootstrap peer', { addr });
      },
      (e: Error) => {
        const first = !this.reported.has(peer.id);
        this.reported.add(peer.id);
        this.host.logger[first ? 'info' : 'debug']('redial failed', { addr, error: e.message });
      },
    );
  }
}

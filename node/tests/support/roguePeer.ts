/**
 * TEST ONLY: a peer that serves block sync over real libp2p with the node's own network class and
 * codecs (syncPeers.ts) from a chain of its own, but lies as told: it forges the commits it
 * serves, claims a height it does not have, or takes a request for blocks and never answers.
 * The forgers below are the commits a security review sent to a node cut off from its validators.
 * With `snapshot`, it also serves the state sync protocol with that lie (rogueSnapshots.ts).
 */
import { blockToJson, type Commit, signVote } from '../../src/chain/index.js';
import { sha256, utf8Bytes } from '../../src/crypto/hash.js';
import { bytesToHex } from '../../src/crypto/hex.js';
import {
  commitToJson,
  decodeSyncRequest,
  encodeJson,
  MAX_SYNC_BLOCKS,
  type SyncRequest,
} from '../../src/p2p/messages.js';
import type { P2PNetwork } from '../../src/p2p/network.js';
import { SYNC_PROTOCOL } from '../../src/p2p/protocol.js';
import type { ChainService } from '../../src/service/chainService.js';
import { key } from '../fixtures.js';
import { type SnapshotLie, type SnapshotLieOptions, serveLyingSnapshots } from './rogueSnapshots.js';
import { addressOf, type PeerOptions, startNetwork } from './syncPeers.js';

export interface Lies {
  /** The height it claims in its status answers (default: its chain's). */
  readonly claimHeight?: number;
  /** It takes every request for blocks and never answers it (until stopped). */
  readonly stallBlocks?: boolean;
  /** Rewrites each commit it serves. */
  readonly forgeCommit?: (commit: Commit) => Commit;
  /** Serves /chain/snapshot/1.0.0 from its chain's snapshots with this lie. */
  readonly snapshot?: SnapshotLie;
  /** The lie's sizes (a bomb's entries, a slow chunk's delay). */
  readonly snapshotLie?: SnapshotLieOptions;
}

export class RoguePeer {
  /** Every sync request it received, in order. */
  readonly requests: SyncRequest[] = [];
  /** The height of every snapshot chunk asked of it, in order. */
  readonly chunkRequests: number[] = [];
  private release: () => void = () => undefined;
  private readonly stalled = new Promise<void>((resolve) => {
    this.release = resolve;
  });

  private constructor(
    readonly network: P2PNetwork,
    readonly address: string,
  ) {}

  static async start(source: ChainService, lies: Lies, o: PeerOptions): Promise<RoguePeer> {
    const network = await startNetwork(o);
    const rogue = new RoguePeer(network, addressOf(network, o.port));
    await network.serve(SYNC_PROTOCOL, async (bytes) => {
      const req = decodeSyncRequest(bytes);
      if (typeof req === 'string') return encodeJson({ error: req });
      rogue.requests.push(req);
      if (req.type === 'status') return encodeJson({ height: lies.claimHeight ?? source.state.height });
      if (lies.stallBlocks) {
        await rogue.stalled;
        return encodeJson({ error: 'stopped' });
      }
      const blocks = await source.blocksWithCommits(
        req.from,
        Math.min(req.to, req.from + MAX_SYNC_BLOCKS - 1),
      );
      const forge = lies.forgeCommit ?? ((c: Commit) => c);
      return encodeJson({
        blocks: blocks.map((b) => ({ block: blockToJson(b.block), commit: commitToJson(forge(b.commit)) })),
      });
    });
    if (lies.snapshot !== undefined)
      await serveLyingSnapshots(network, source, lies.snapshot, rogue.chunkRequests, lies.snapshotLie);
    return rogue;
  }

  get peerId(): string {
    return this.network.peerId;
  }

  /** The requests for blocks it received. */
  blockRequests(): SyncRequest[] {
    return this.requests.filter((r) => r.type === 'blocks');
  }

  async stop(): Promise<void> {
    this.release();
    await this.network.stop();
  }
}

/** 65 bytes of hex that are no signature of anything, the same for the same `label`. */
function junkSignature(label: string): string {
  return `${bytesToHex(sha256(utf8Bytes(`${label}-r`)))}${bytesToHex(sha256(utf8Bytes(`${label}-s`)))}1b`;
}

/** (a) An extra entry by a signer that is no validator, with its own valid precommit signature. */
export function withUnknownSigner(commit: Commit, chainId: string): Commit {
  const stranger = key('rogue-stranger');
  const vote = signVote(
    chainId,
    {
      kind: 'precommit',
      height: commit.height,
      round: commit.round,
      blockHash: commit.blockHash,
      validator: stranger.validator,
    },
    stranger.privateKey,
  );
  return {
    ...commit,
    signatures: [...commit.signatures, { validator: vote.validator, signature: vote.signature }],
  };
}

/** (b) The first signer repeated `times` more times with junk signatures (6 of 8 payouts). */
export function withRepeatedSigner(commit: Commit, times = 5): Commit {
  const first = commit.signatures[0]!;
  const repeats = Array.from({ length: times }, (_x, i) => ({
    validator: first.validator,
    signature: junkSignature(`repeat-${commit.height}-${i}`),
  }));
  return { ...commit, signatures: [...commit.signatures, ...repeats] };
}

/** (c) The first signer's signature replaced by junk. */
export function withInvalidSignature(commit: Commit): Commit {
  const [first, ...rest] = commit.signatures;
  return {
    ...commit,
    signatures: [
      { validator: first!.validator, signature: junkSignature(`invalid-${commit.height}`) },
      ...rest,
    ],
  };
}

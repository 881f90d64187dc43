/**
 * The source of `devnet up --fork URL[@HEIGHT]`: the URL of a running node's RPC and the height
 * to fork at, parsed; its state at that height fetched and verified against the committed header
 * (@chain-devnet/node/client's fetchVerifiedSnapshot: docs/PROTOCOL.md, "Snapshot content"),
 * every refusal a DevnetError naming what is wrong, before anything of the devnet is made.
 */
import { type ChainState, loadGenesis } from '@chain-devnet/node/chain';
import {
  fetchVerifiedSnapshot,
  RpcClient,
  RpcError,
  SnapshotSourceError,
  type TrustedGenesis,
} from '@chain-devnet/node/client';
import { DevnetError } from '../errors.js';

export type { ForkRecord } from '../state.js';

export interface ForkTarget {
  /** The source node's RPC, e.g. http://127.0.0.1:8000 (no trailing slash). */
  readonly url: string;
  /** The height to fork at, or null: the newest snapshot the source keeps below its height. */
  readonly height: number | null;
}

/** `URL[@HEIGHT]`: an http(s) URL of a node's RPC, and a height after an @ at its end. */
export function parseForkTarget(text: string): ForkTarget {
  const m = /^(.*?)(?:@([0-9]+))?$/.exec(text.trim())!;
  const raw = m[1]!.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DevnetError(
      'BAD_FLAG',
      `--fork ${text}: not a URL (expected http://HOST:PORT[@HEIGHT], a node's RPC)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DevnetError('BAD_FLAG', `--fork ${text}: the URL must be http:// or https:// (a node's RPC)`);
  if (url.search !== '' || url.hash !== '' || url.username !== '')
    throw new DevnetError('BAD_FLAG', `--fork ${text}: the URL takes no query, fragment or credentials`);
  const height = m[2] === undefined ? null : Number(m[2]);
  if (height !== null && (!Number.isSafeInteger(height) || height < 1))
    throw new DevnetError('BAD_FLAG', `--fork ${text}: HEIGHT must be a positive integer`);
  return { url: raw, height };
}

/** What a fork starts from: the source's verified state at its height, and what proves whose it is. */
export interface ForkState {
  readonly state: ChainState;
  /** The snapshot content's hash. */
  readonly hash: string;
  readonly sourceHeight: number;
  /** The genesis hash the state names (protocol 1.2.0 and later), or null: a state below it names none. */
  readonly genesisHash: string | null;
  /** The --fork-genesis file's genesis hash, which the state was held to; null without the file. */
  readonly trustedGenesisHash: string | null;
}

/**
 * The source's verified state. `trustedGenesis`: the source's genesis file (parsed JSON), whose
 * validators then anchor the check and whose hash the state must name (from protocol 1.2.0);
 * without it the validator set the state names is trusted.
 */
export async function fetchForkState(target: ForkTarget, trustedGenesis: unknown = null): Promise<ForkState> {
  let trusted: TrustedGenesis | null = null;
  if (trustedGenesis !== null) {
    const g = loadGenesis(trustedGenesis);
    if (!g.ok) throw new DevnetError('BAD_FLAG', `--fork-genesis: not a genesis: ${g.problems.join('; ')}`);
    trusted = { state: g.genesis.state, hash: g.genesis.hash };
  }
  try {
    const v = await fetchVerifiedSnapshot(new RpcClient(target.url, 60_000), target.height, trusted);
    return {
      state: v.state,
      hash: v.hash,
      sourceHeight: v.sourceHeight,
      genesisHash: v.genesisHash,
      trustedGenesisHash: trusted?.hash ?? null,
    };
  } catch (e) {
    if (e instanceof SnapshotSourceError)
      throw new DevnetError('BAD_FORK', `--fork ${target.url}: refused: ${e.message}`);
    if (e instanceof RpcError)
      throw new DevnetError(
        'BAD_FORK',
        `--fork ${target.url}: the source answered HTTP ${e.status} ${e.detail} (${e.url})`,
      );
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new DevnetError(
      'BAD_FORK',
      cause === undefined
        ? `--fork ${target.url}: ${(e as Error).message}`
        : `--fork ${target.url}: the source does not answer (${cause}): is a node's RPC there?`,
    );
  }
}

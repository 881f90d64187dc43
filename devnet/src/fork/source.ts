/**
 * The source of `devnet up --fork URL[@HEIGHT]`: the URL of a running node's RPC and the height
 * to fork at, parsed; its state at that height fetched and verified against the committed header
 * (@chain-devnet/node/client's fetchVerifiedSnapshot: docs/PROTOCOL.md, "Snapshot content"),
 * every refusal a DevnetError naming what is wrong, before anything of the devnet is made.
 */
import { type ChainState, loadGenesis } from '@chain-devnet/node/chain';
import {
  fetchVerifiedSnapshot,
  RpcAnswerTooLargeError,
  RpcClient,
  RpcError,
  SnapshotSourceError,
  type TrustedGenesis,
} from '@chain-devnet/node/client';
import { DevnetError } from '../base/errors.js';

export type { ForkRecord } from '../state/devnetState.js';

export interface ForkTarget {
  /** The source node's RPC, e.g. http://127.0.0.1:8000 (no trailing slash). */
  readonly url: string;
  /** The height to fork at, or null: the newest snapshot the source keeps below its height. */
  readonly height: number | null;
}

/**
 * `--fork URL[@HEIGHT]`, or `--fork URL --fork-height N`: the URL of a node's RPC and the height.
 * HEIGHT is what follows the last `@` when that is all digits; with `--fork-height` the whole text
 * is the URL. So any URL can be named: one whose path ends in `@DIGITS` with `--fork-height`, or
 * with a `/` after it. An `@` in the URL's authority is never the URL's own (it takes no
 * credentials): what follows it was meant as a height, and is named as a bad one.
 */
export function parseForkTarget(text: string, heightFlag?: number): ForkTarget {
  const trimmed = text.trim();
  const at = trimmed.lastIndexOf('@');
  const tail = at < 0 ? null : trimmed.slice(at + 1);
  const digits = tail !== null && /^[0-9]+$/.test(tail);
  const meantHeight = tail !== null && inAuthority(trimmed, at);
  if (heightFlag !== undefined && digits && meantHeight)
    throw new DevnetError(
      'BAD_FLAG',
      `--fork ${text} and --fork-height ${heightFlag}: the height is given twice (name it once)`,
    );
  if (heightFlag === undefined && tail !== null && !digits && meantHeight)
    throw new DevnetError(
      'BAD_FLAG',
      `--fork ${text}: "${tail}" after the @ is not a height: HEIGHT must be a positive integer (URL@HEIGHT or --fork-height N; a URL takes no user or password before an @)`,
    );
  const split = heightFlag === undefined && digits;
  const raw = split ? trimmed.slice(0, at) : trimmed;
  const url = forkUrl(raw, `--fork ${text}`);
  const height = heightFlag ?? (split ? Number(tail) : null);
  if (height !== null && (!Number.isSafeInteger(height) || height < 1))
    throw new DevnetError('BAD_FLAG', `--fork ${text}: HEIGHT must be a positive integer, got ${height}`);
  return { url, height };
}

/** Whether the `@` at `at` is in the URL's authority (after `scheme://`, before its path, query or fragment). */
function inAuthority(text: string, at: number): boolean {
  const scheme = text.indexOf('://');
  if (scheme < 0 || at < scheme) return false;
  const end = text.slice(scheme + 3).search(/[/?#]/);
  return end < 0 || at < scheme + 3 + end;
}

/** `raw` checked as the URL of a node's RPC, without its trailing slashes; `as` names where it was given. */
export function forkUrl(raw: string, as: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DevnetError('BAD_FLAG', `${as}: not a URL (expected http://HOST:PORT[@HEIGHT], a node's RPC)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DevnetError('BAD_FLAG', `${as}: the URL must be http:// or https:// (a node's RPC)`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw new DevnetError('BAD_FLAG', `${as}: the URL takes no query, fragment or credentials`);
  return raw.replace(/\/+$/, '');
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
    // Each answer is read up to its endpoint's bound (RpcClient's ANSWER_BOUNDS), the rest never.
    if (e instanceof RpcAnswerTooLargeError)
      throw new DevnetError(
        'BAD_FORK',
        `--fork ${target.url}: refused: ${e.message}: is a node's RPC there?`,
      );
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

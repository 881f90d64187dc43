/**
 * The chain's time as `devnet status` and the panel show it (issue 42): the chain-wide control in
 * chain_control.json's names and each node's own clock skew, and that in one line for people.
 * Pure: the page bundles it.
 */
import { formatDuration } from '@chain-devnet/kit/values';

/** `devnet status`'s chain time: the chain-wide control in the file's names, and each node's own skew. */
export interface ChainTimeJson {
  readonly hold: boolean;
  readonly mine_to_height: number | null;
  /** null: the genesis's. */
  readonly block_time_ms: number | null;
  readonly time_offset_ms: number;
  /** Each node's own clock skew in ms (0: the machine's). */
  readonly clock_skew_ms: Readonly<Record<string, number>>;
}

/** One line for people: "chain held, blocks every 2s, chain time +1h; clocks validator-2 +10s". */
export function describeChainTime(t: ChainTimeJson): string {
  const signed = (ms: number) => `${ms < 0 ? '-' : '+'}${formatDuration(Math.abs(ms))}`;
  const parts = [
    `chain ${t.hold ? 'held' : 'running'}${t.mine_to_height === null ? '' : `, mining to ${t.mine_to_height}`}`,
    t.block_time_ms === null ? '' : `blocks every ${formatDuration(t.block_time_ms)}`,
    t.time_offset_ms === 0 ? '' : `chain time ${signed(t.time_offset_ms)}`,
  ].filter((p) => p !== '');
  const skewed = Object.entries(t.clock_skew_ms).filter(([, ms]) => ms !== 0);
  const clocks =
    skewed.length === 0 ? '' : `; clocks ${skewed.map(([n, ms]) => `${n} ${signed(ms)}`).join(', ')}`;
  return `${parts.join(', ')}${clocks}`;
}

/**
 * `devnet chain pause | resume | mine N | mine --until-height H | mine --until-epoch E |
 * block-time D | time +D | time --at UNIX | show`: the chain's time under the tester's hand
 * (operations/chainTime.ts; docs/RULES.md, "Chain time under the control").
 */
import { defineCommand, integer, UsageError } from '@chain-devnet/kit/cli';
import { formatDuration, parseDuration, parseSignedDuration } from '@chain-devnet/kit/values';
import { Devnet } from '../../devnet/devnet.js';
import { ChainTime, type MineTarget } from '../../operations/chainTime.js';
import type { ChainWide } from '../../runtime/chainControl.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

/** `devnet chain … --json`: the chain-wide control after the command, and what it did. */
export interface ChainJson {
  readonly action: string;
  readonly hold: boolean;
  readonly block_time_ms: number | null;
  readonly time_offset_ms: number;
  /** pause: the height held at; resume: the one it goes on from. */
  readonly height?: number;
  /** mine: the heights it made. */
  readonly heights?: readonly number[];
}

const ACTIONS = ['pause', 'resume', 'mine', 'block-time', 'time', 'show'] as const;
type Action = (typeof ACTIONS)[number];
const isAction = (a: string | undefined): a is Action =>
  (ACTIONS as readonly (string | undefined)[]).includes(a);

function mineTarget(
  arg: string | undefined,
  untilHeight: number | undefined,
  untilEpoch: number | undefined,
): MineTarget {
  const given = [arg, untilHeight, untilEpoch].filter((x) => x !== undefined).length;
  if (given !== 1)
    throw new UsageError('devnet chain mine takes one of N, --until-height H, --until-epoch E');
  if (untilHeight !== undefined) return { height: untilHeight };
  if (untilEpoch !== undefined) return { epoch: untilEpoch };
  if (!/^[0-9]+$/.test(arg!) || Number(arg) < 1)
    throw new UsageError(`devnet chain mine N: N must be a whole number above 0, got ${arg}`);
  return { blocks: Number(arg) };
}

async function act(
  t: ChainTime,
  action: Action,
  arg: string | undefined,
  v: { 'until-height': number | undefined; 'until-epoch': number | undefined; at: number | undefined },
) {
  switch (action) {
    case 'pause':
      return (await t.pause()).height;
    case 'resume':
      return (await t.resume()).height;
    case 'mine':
      return (await t.mine(mineTarget(arg, v['until-height'], v['until-epoch']))).heights;
    case 'block-time': {
      const ms = arg === 'default' ? null : parseDuration(arg ?? '');
      if (ms === undefined || (ms !== null && ms <= 0) || (arg !== 'default' && ms === null))
        throw new UsageError('devnet chain block-time D: a duration such as 500ms or 2s, or default');
      await t.blockTime(ms);
      return undefined;
    }
    case 'time': {
      if ((arg === undefined) === (v.at === undefined))
        throw new UsageError('devnet chain time takes +D or --at UNIX');
      const by = arg === undefined ? null : parseSignedDuration(arg);
      if (arg !== undefined && (by === null || by <= 0))
        throw new UsageError(`devnet chain time +D: a forward duration such as +1h, got ${arg}`);
      await t.jump(by === null ? { atUnix: v.at! } : { byMs: by });
      return undefined;
    }
    case 'show':
      return undefined;
  }
}

function describe(c: ChainWide): string {
  const bt =
    c.blockTimeMs === null ? "the genesis's block time" : `blocks every ${formatDuration(c.blockTimeMs)}`;
  const offset =
    c.timeOffsetMs === 0 ? 'chain time as the clocks' : `chain time +${formatDuration(c.timeOffsetMs)}`;
  return `${c.hold ? 'held' : 'running'}, ${bt}, ${offset}`;
}

export const chainCommand = defineCommand({
  name: 'chain',
  summary: "the chain's time: hold it, mine blocks now, change the block time, move chain time forward",
  options: {
    'until-height': integer('mine: up to this height', {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
      valueName: 'H',
    }),
    'until-epoch': integer('mine: up to the last block of epoch E-1 (status then shows epoch E)', {
      min: 1,
      max: 1e12,
      valueName: 'E',
    }),
    at: integer('time: chain time at this Unix second for the next block', {
      min: 0,
      max: 1e11,
      valueName: 'UNIX',
    }),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [
    { name: 'ACTION', description: ACTIONS.join(', '), required: true },
    { name: 'ARG', description: 'mine: N blocks; block-time: D or default; time: +D' },
  ],
  details:
    'Every block is still decided by the validators through consensus (docs/RULES.md, "Chain time under the control"). ' +
    'pause: validators enter no new height (RPC, transactions and gossip go on; nobody is jailed or marked absent for it); returns the height held at. ' +
    'mine: heights with no wait between them, then the chain held or running as before; prints the heights made. ' +
    'time: the next blocks are D later (never backwards): mempool ages move with it. ' +
    'The control is the devnet\'s: each node\'s chain_control.json (docs/PROTOCOL.md, "Chain control"), in force again when a node restarts, is upgraded, restored or added.',
  run: async ({ values: v, positionals }) => {
    const action = positionals[0];
    if (!isAction(action))
      throw new UsageError(`devnet chain: ACTION is one of ${ACTIONS.join(', ')}, got ${action}`);
    const t = new ChainTime(await Devnet.open(homeOf(v.home)));
    const did = await act(t, action, positionals[1], v);
    const c = await t.current();
    if (v.json)
      printJson<ChainJson>({
        action,
        hold: c.hold,
        block_time_ms: c.blockTimeMs,
        time_offset_ms: c.timeOffsetMs,
        ...(typeof did === 'number' ? { height: did } : {}),
        ...(Array.isArray(did) ? { heights: did } : {}),
      });
    else {
      if (action === 'pause' && typeof did === 'number') out(`chain held at height ${did}`);
      if (Array.isArray(did))
        out(
          did.length === 0
            ? 'nothing to mine: the chain is past it'
            : `mined heights ${did[0]}…${did.at(-1)} (${did.length} blocks)`,
        );
      out(describe(c));
    }
    return 0;
  },
});

/**
 * `devnet clock NODE --skew ±D`: a node's own clock ahead or behind (through its injected clock,
 * never the machine's; operations/chainTime.ts). Without --skew, the skew in force.
 */
import { defineCommand, signedDuration } from '@chain-devnet/kit/cli';
import { formatDuration } from '@chain-devnet/kit/values';
import { Devnet } from '../../devnet/devnet.js';
import { ChainTime } from '../../operations/chainTime.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

/** `devnet clock NODE --json`. */
export interface ClockJson {
  readonly node: string;
  readonly clock_skew_ms: number;
}

export const clockCommand = defineCommand({
  name: 'clock',
  summary: "a node's own clock ahead or behind (--skew +3s, -10s, 0)",
  options: {
    skew: signedDuration("its clock this far ahead (+) or behind (-) the machine's", {}),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [{ name: 'NODE', description: 'which node (devnet status lists them)', required: true }],
  details:
    "The skew is the node's own clock edge with an offset: its proposals' timestamps and its check of others' (docs/RULES.md, \"Block timestamps\"). " +
    "The manifest's clock_skew of a validator sets it at its first start; kept in its chain_control.json, in force again when it restarts.",
  run: async ({ values: v, positionals }) => {
    const d = await Devnet.open(homeOf(v.home));
    const name = d.node(positionals[0]!).name;
    const skew =
      v.skew === undefined
        ? (await d.control.of(name)).clockSkewMs
        : (await new ChainTime(d).skew(name, v.skew)).clockSkewMs;
    if (v.json) printJson<ClockJson>({ node: name, clock_skew_ms: skew });
    else
      out(
        `${name}: clock ${skew === 0 ? 'as the machine' : `${skew < 0 ? '-' : '+'}${formatDuration(Math.abs(skew))}`}`,
      );
    return 0;
  },
});

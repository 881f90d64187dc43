/** The options of network conditions (`devnet net`), each read with net/units.ts, a bad value naming its option. */
import { valueOption } from '@chain-devnet/kit/cli';
import { formatDelay, formatLoss, formatRate } from '../net/shown.js';
import { EXPECTED, parseDelay, parseLoss, parseRate } from '../net/units.js';

type Kind = keyof typeof EXPECTED;
const HOW: Record<
  Kind,
  { valueName: string; read: (t: string) => number | null; show: (n: number) => string }
> = {
  delay: { valueName: 'D', read: parseDelay, show: formatDelay },
  loss: { valueName: 'P', read: parseLoss, show: formatLoss },
  rate: { valueName: 'R', read: parseRate, show: formatRate },
};
const option = (kind: Kind, description: string) =>
  valueOption(
    description,
    {},
    { valueName: HOW[kind].valueName, expected: EXPECTED[kind], read: HOW[kind].read },
    HOW[kind].show,
  );

export const latencyOption = option(
  'delay',
  'one-way delay added to each link, e.g. 100ms (both directions by default: a round trip gains twice it)',
);
export const jitterOption = option(
  'delay',
  'up to this much more or less than the latency, drawn per chunk, e.g. 20ms',
);
export const lossOption = option(
  'loss',
  'the chance a TCP segment is lost (costs a retransmission), e.g. 1% or 0.01',
);
export const rateOption = option(
  'rate',
  "bits a second, e.g. 1mbit: without --to the node's whole uplink (out) and downlink (in), with --to each link's own",
);

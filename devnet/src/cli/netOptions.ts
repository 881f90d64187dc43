/** The options of network conditions (`devnet net`), each read with net/units.ts, a bad value naming its option. */
import { valueOption } from '@chain-devnet/kit/cli';
import { formatDelay, formatLoss, formatRate } from '../net/shown.js';
import { EXPECTED, parseDelay, parseLoss, parseRate } from '../net/units.js';

export const latencyOption = valueOption(
  'one-way delay added to each link, e.g. 100ms (both directions by default: a round trip gains twice it)',
  {},
  { valueName: 'D', expected: EXPECTED.delay, read: parseDelay },
  formatDelay,
);
export const jitterOption = valueOption(
  'up to this much more or less than the latency, drawn per chunk, e.g. 20ms',
  {},
  { valueName: 'D', expected: EXPECTED.delay, read: parseDelay },
  formatDelay,
);
export const lossOption = valueOption(
  'the chance a TCP segment is lost (costs a retransmission), e.g. 1% or 0.01',
  {},
  { valueName: 'P', expected: EXPECTED.loss, read: parseLoss },
  formatLoss,
);
export const rateOption = valueOption(
  "bits a second, e.g. 1mbit: without --to the node's whole uplink (out) and downlink (in), with --to each link's own",
  {},
  { valueName: 'R', expected: EXPECTED.rate, read: parseRate },
  formatRate,
);

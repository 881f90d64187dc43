/**
 * The chain's time from the page (`devnet chain`, `devnet clock`): hold and resume the chain, mine
 * N blocks now, change the block time, move chain time forward, skew a node's clock. The header
 * says the control in force and each skewed clock (the same line as `devnet status`), from the
 * nodes' files however it was set; each form says what happened next to its buttons.
 */
import { formatDuration } from '@chain-devnet/kit/values';
import { describeChainTime } from '../../devnet/chainTimeShown.js';
import type { ChainRequest } from '../shapes.js';
import type { Api } from './api.js';
import { byId, setText } from './dom.js';
import { field, nodeSelects, onSubmit } from './forms.js';
import type { Model } from './model.js';

/** The request a button of the time form makes, from its fields. */
function chainRequest(form: HTMLFormElement, button: string): ChainRequest {
  if (button === 'pause' || button === 'resume') return button;
  if (button === 'mine') {
    const n = field(form, 'mine') || '1';
    if (!/^[0-9]+$/.test(n) || Number(n) < 1)
      throw new Error(`blocks to mine: a whole number above 0, not ${n}`);
    return { mine: Number(n) };
  }
  if (button === 'block-time') return { block_time: field(form, 'block') || 'default' };
  const by = field(form, 'jump');
  return { time: by.startsWith('+') ? by : `+${by}` };
}

export function timeFormView(model: Model, api: Api): void {
  const form = byId<HTMLFormElement>('time-form');
  onSubmit(form, byId('time-outcome'), async (button) => {
    const a = await api.chain(chainRequest(form, button));
    const at =
      a.height === null ? '' : button === 'pause' ? ` at height ${a.height}` : ` (height ${a.height})`;
    return `${describeChainTime(a)}${at}`;
  });
  const clock = byId<HTMLFormElement>('clock-form');
  onSubmit(clock, byId('clock-outcome'), async () => {
    const node = field(clock, 'node');
    const a = await api.clock({ node, skew: field(clock, 'skew') || '0s' });
    const ms = a.clock_skew_ms[node] ?? 0;
    return `${node}'s clock: ${ms === 0 ? "the machine's" : `${ms > 0 ? '+' : '-'}${formatDuration(Math.abs(ms))}`}`;
  });
  nodeSelects(model, [byId<HTMLSelectElement>('clock-node')]);
  model.on('time', () =>
    setText(byId('chain-time'), model.time === null ? '–' : describeChainTime(model.time)),
  );
}

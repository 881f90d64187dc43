/** The validators table: power, delegations, uptime, produced and missed slots, jail state and count. */
import type { ValidatorRow } from '../shapes.js';
import { byId, fill, h } from './dom.js';
import { coinsOf, percent } from './format.js';
import type { Model } from './model.js';
import type { Palette } from './palette.js';

function row(v: ValidatorRow, palette: Palette): HTMLTableRowElement {
  const name = v.node ?? v.name;
  const dot = h('span', { class: 'dot', 'aria-hidden': 'true' });
  dot.style.background = palette.of(name);
  return h(
    'tr',
    { 'data-validator': name },
    h('th', { scope: 'row', title: v.address }, dot, name),
    h('td', {}, h('span', { class: `badge status-${v.status.toLowerCase()}` }, v.status)),
    h('td', { class: 'num' }, coinsOf(v.power)),
    h('td', { class: 'num' }, coinsOf(v.total_delegated)),
    h('td', { class: 'num' }, percent(v.uptime)),
    h('td', { class: 'num' }, v.produced_slots),
    h('td', { class: v.missed_slots > 0 ? 'num warn' : 'num' }, v.missed_slots),
    h('td', {}, v.is_jailed ? h('span', { class: 'badge jailed' }, 'jailed') : 'no'),
    h('td', { class: 'num' }, v.jail_count),
    h('td', { class: 'num' }, percent(v.commission_rate)),
  );
}

export function validatorsView(model: Model, palette: Palette): void {
  const body = byId<HTMLTableSectionElement>('validators-body');
  // By name, as the nodes are (the RPC gives them in proposer order).
  const nameOf = (v: ValidatorRow) => v.node ?? v.name;
  model.on('validators', () =>
    fill(
      body,
      ...[...model.validators]
        .sort((a, b) => nameOf(a).localeCompare(nameOf(b), undefined, { numeric: true }))
        .map((v) => row(v, palette)),
    ),
  );
}

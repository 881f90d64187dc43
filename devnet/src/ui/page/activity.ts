/**
 * What was done from any open panel, newest first, and a polite live region that announces each
 * action's end and each node's change of state (not every block: that would be noise).
 */
import type { Activity } from '../shapes.js';
import { byId, fill, h, setText } from './dom.js';
import { clock } from './format.js';
import type { Model } from './model.js';
import { runState } from './nodes.js';

export function activityView(model: Model): { announce: (text: string) => void } {
  const list = byId<HTMLOListElement>('activity-list');
  const live = byId('announce');
  const announce = (text: string) => {
    // A fresh text each time, so that the same words twice are read twice.
    setText(live, '');
    requestAnimationFrame(() => setText(live, text));
  };
  const item = (a: Activity) =>
    h(
      'li',
      { class: `activity ${a.status}`, 'data-activity': a.id },
      h('span', { class: 'time' }, clock(a.at)),
      h('span', { class: `badge act-${a.status}` }, a.status),
      h('span', { class: 'what' }, a.what),
      a.detail === null ? null : h('span', { class: 'detail' }, a.detail),
    );
  const told = new Map<number, Activity['status']>();
  model.on('activity', () => {
    const all = [...model.activity.values()].sort((a, b) => b.id - a.id);
    fill(list, ...all.map(item));
    for (const a of all) {
      const before = told.get(a.id);
      if (before !== undefined && before !== a.status && a.status !== 'running')
        announce(`${a.what}: ${a.status}${a.detail ? `, ${a.detail}` : ''}`);
      told.set(a.id, a.status);
    }
  });
  const states = new Map<string, string>();
  model.on('nodes', () => {
    for (const n of model.nodes) {
      const s = runState(n);
      const before = states.get(n.name);
      if (before !== undefined && before !== s) announce(`${n.name} is ${s}`);
      states.set(n.name, s);
    }
  });
  return { announce };
}

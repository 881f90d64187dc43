/**
 * One node's log, following: the lines the panel keeps (its last few hundred) and each new one
 * as it comes, read as time, level and message. It stays at the bottom while the reader is
 * there; scrolled up, it stays put and says how many lines came since.
 */
import { byId, fill, h, setText } from './dom.js';
import { logLine } from './format.js';
import type { Model } from './model.js';

const SHOWN = 300;

function lineItem(line: string): HTMLElement {
  const l = logLine(line);
  return h(
    'div',
    { class: `line level-${l.level.toLowerCase()}` },
    l.time === '' ? null : h('span', { class: 'time' }, l.time),
    l.level === '' ? null : h('span', { class: 'level' }, l.level.padEnd(5)),
    h('span', { class: 'msg' }, l.text),
  );
}

export function logsView(model: Model): void {
  const select = byId<HTMLSelectElement>('log-node');
  const box = byId('log-lines');
  const status = byId('log-status');
  let node = '';
  let unseen = 0;
  const atBottom = () => box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  const toBottom = () => {
    box.scrollTop = box.scrollHeight;
    unseen = 0;
    setText(status, '');
  };

  const redraw = () => {
    fill(box, ...(model.logs.get(node) ?? []).slice(-SHOWN).map(lineItem));
    toBottom();
  };

  const options = () => {
    const names = model.nodes.map((n) => n.name);
    if (names.join() === [...select.options].map((o) => o.value).join()) return;
    fill(select, ...names.map((n) => h('option', { value: n }, n)));
    if (!names.includes(node)) node = names[0] ?? '';
    select.value = node;
    redraw();
  };

  select.addEventListener('change', () => {
    node = select.value;
    redraw();
  });
  box.addEventListener('scroll', () => {
    if (atBottom()) toBottom();
  });
  model.on('nodes', options);
  model.on('logs', () => {
    const fresh = model.lastLog;
    if (fresh === null) return redraw(); // a snapshot
    if (fresh.node !== node) return;
    const follow = atBottom();
    box.append(...fresh.lines.map(lineItem));
    while (box.children.length > SHOWN) box.firstElementChild!.remove();
    if (follow) toBottom();
    else {
      unseen += fresh.lines.length;
      setText(status, `${unseen} new line${unseen === 1 ? '' : 's'} below`);
    }
  });
}

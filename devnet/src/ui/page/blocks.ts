/**
 * The block stream, newest first: height, proposer (in its node's color, so that the rotation
 * shows at a glance), transactions, and the blocks decided after round 0 with the proposers
 * that missed their slot before them. Above it, a strip of the last blocks' proposers.
 */
import type { BlockRow } from '../shapes.js';
import { byId, fill, h } from './dom.js';
import { shortHash } from './format.js';
import type { Model } from './model.js';
import type { Palette } from './palette.js';

const SHOWN = 60;
const STRIP = 40;

function blockItem(b: BlockRow, palette: Palette): HTMLLIElement {
  const late = b.round > 0;
  const proposer = h('span', { class: 'proposer' }, b.proposer);
  proposer.style.borderColor = palette.of(b.proposer);
  proposer.style.color = palette.of(b.proposer);
  return h(
    'li',
    { class: late ? 'block late' : 'block', 'data-height': b.height },
    h('span', { class: 'height' }, `#${b.height}`),
    proposer,
    h('span', { class: 'txs' }, `${b.txs} tx${b.txs === 1 ? '' : 's'}`),
    late ? h('span', { class: 'badge round' }, `round ${b.round}`) : null,
    ...b.missed.map((m) =>
      h('span', { class: 'badge missed' }, `missed: ${m.validator}${m.slots > 1 ? ` ×${m.slots}` : ''}`),
    ),
    h('span', { class: 'mono hash', title: b.hash }, shortHash(b.hash)),
  );
}

export function blocksView(model: Model, palette: Palette): void {
  const list = byId<HTMLOListElement>('blocks-list');
  const strip = byId('proposer-strip');
  model.on('blocks', () => {
    const blocks = model.blocks;
    const top = blocks[blocks.length - 1]?.height ?? 0;
    // New blocks go on top; a first draw, a snapshot after a gap or a long absence redraws.
    const firstShown = Number((list.firstElementChild as HTMLElement | null)?.dataset.height ?? 0);
    const fresh = blocks.filter((b) => b.height > firstShown);
    if (firstShown > 0 && fresh.length > 0 && fresh.length < SHOWN && fresh[0]!.height === firstShown + 1) {
      for (const b of fresh) list.prepend(blockItem(b, palette));
      while (list.children.length > SHOWN) list.lastElementChild!.remove();
    } else if (firstShown === 0 || fresh.length > 0)
      fill(
        list,
        ...blocks
          .slice(-SHOWN)
          .reverse()
          .map((b) => blockItem(b, palette)),
      );
    fill(
      strip,
      ...blocks.slice(-STRIP).map((b) => {
        const cell = h('span', {
          class: b.round > 0 ? 'cell late' : 'cell',
          title: `#${b.height} by ${b.proposer}${b.round > 0 ? `, round ${b.round}` : ''}`,
        });
        cell.style.background = palette.of(b.proposer);
        return cell;
      }),
    );
    strip.setAttribute(
      'aria-label',
      `proposers of the last ${Math.min(STRIP, blocks.length)} blocks up to #${top}`,
    );
  });
}

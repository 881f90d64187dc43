/**
 * The form of disk faults (`devnet disk`): a node's disk filled, freed, slowed (each write and
 * fsync by the delay given) or cleared. It says what happened next to its buttons; the nodes
 * table shows each node's disk.
 */
import type { Api } from './api.js';
import { byId } from './dom.js';
import { field, nodeSelects, onSubmit } from './forms.js';
import type { Model } from './model.js';

export function diskFormView(model: Model, api: Api): void {
  const form = byId<HTMLFormElement>('disk-form');
  onSubmit(form, byId('disk-outcome'), async (button) => {
    const node = field(form, 'node');
    const slow = field(form, 'slow') === '' ? '50ms' : field(form, 'slow');
    const change =
      button === 'full'
        ? { full: true }
        : button === 'free'
          ? { full: false }
          : button === 'slow'
            ? { slowWrites: slow, slowFsync: slow }
            : { clear: true };
    const a = await api.disk({ node, ...change });
    const now = [
      a.full ? 'full' : 'not full',
      a.write_delay_ms > 0 ? `writes +${a.write_delay_ms} ms, fsync +${a.fsync_delay_ms} ms` : '',
      a.lose_unsynced ? 'loses unsynced' : '',
    ].filter((x) => x !== '');
    return `${node}'s disk: ${now.join(', ')}`;
  });
  nodeSelects(model, [byId<HTMLSelectElement>('disk-node')]);
}

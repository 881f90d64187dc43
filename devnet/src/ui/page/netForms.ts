/**
 * The forms of network conditions and partitions (`devnet net`, `devnet partition`): a node's
 * latency, jitter, loss and rate (set or cleared), a partition shape, a one-way cut, a heal. Each
 * says what happened next to its buttons; the nodes table shows each node's conditions.
 */
import type { NetAnswer, NetRequest } from '../shapes.js';
import type { Api } from './api.js';
import { byId } from './dom.js';
import { field, nodeSelects, onSubmit } from './forms.js';
import type { Model } from './model.js';

/** How many nodes have conditions now. */
const shaped = (a: NetAnswer) =>
  Object.values(a.nodes).filter((n) => n.links.length > 0 || n.deaf_to.length > 0).length;

export function netFormsView(model: Model, api: Api): void {
  const net = byId<HTMLFormElement>('net-form');
  onSubmit(net, byId('net-outcome'), async (button) => {
    const node = field(net, 'node');
    const to = field(net, 'to')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    const direction = field(net, 'direction') as NonNullable<NetRequest['direction']>;
    const fields = Object.fromEntries(
      ['latency', 'jitter', 'loss', 'rate'].map((f) => [f, field(net, f)]).filter(([, v]) => v !== ''),
    ) as Pick<NetRequest, 'latency' | 'jitter' | 'loss' | 'rate'>;
    const r: NetRequest = {
      node,
      direction,
      ...(to.length > 0 ? { to } : {}),
      ...(button === 'clear' ? { clear: true } : fields),
    };
    const a = await api.net(r);
    return `${button === 'clear' ? `${node} cleared` : `${node} set`}: ${shaped(a)} node(s) with conditions`;
  });

  const part = byId<HTMLFormElement>('partition-form');
  onSubmit(part, byId('partition-outcome'), async (button) => {
    if (button === 'heal') await api.partition({ heal: true });
    else if (button === 'shape')
      await api.partition({ shape: field(part, 'shape') as 'minority' | 'halves' | 'bridge' | 'ring' });
    else await api.partition({ oneWay: { from: field(part, 'from'), to: field(part, 'to') } });
    return button === 'heal'
      ? 'healed: every partition ended'
      : 'done: the nodes table shows the one-way cuts';
  });

  nodeSelects(model, [
    byId<HTMLSelectElement>('net-node'),
    byId<HTMLSelectElement>('partition-from'),
    byId<HTMLSelectElement>('partition-to'),
  ]);
}

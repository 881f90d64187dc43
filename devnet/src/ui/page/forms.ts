/**
 * The forms: a transfer from a funded account (`devnet tx send`), a node added (`devnet add`) and
 * the devnet saved (`devnet save`).
 * Each says what happened next to its button (and the activity list says it on every page).
 */
import type { TransferRequest } from '../shapes.js';
import type { Api } from './api.js';
import { byId, fill, h, setText } from './dom.js';
import type { Model } from './model.js';

/** The trimmed value of a form's input or select named `name` ('' when there is none). */
export function field(form: HTMLFormElement, name: string): string {
  return ((form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? '').trim();
}

/** Keeps each select's options the devnet's node names, the choice kept while its node is there. */
export function nodeSelects(model: Model, selects: readonly HTMLSelectElement[]): void {
  model.on('nodes', () => {
    const names = model.nodes.map((n) => n.name);
    for (const s of selects) {
      if ([...s.options].map((o) => o.value).join() === names.join()) continue;
      const was = s.value;
      fill(s, ...names.map((n) => h('option', { value: n }, n)));
      if (names.includes(was)) s.value = was;
    }
  });
}

/**
 * Runs `action` for a submitted form (given the value of the button that submitted it), with its
 * buttons disabled meanwhile and the outcome in `out`.
 */
export function onSubmit(
  form: HTMLFormElement,
  out: HTMLElement,
  action: (button: string) => Promise<string>,
): void {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const which = ((e as SubmitEvent).submitter as HTMLButtonElement | null)?.value ?? '';
    const buttons = [...form.querySelectorAll('button')];
    for (const b of buttons) b.disabled = true;
    out.className = 'outcome';
    setText(out, 'working…');
    action(which)
      .then(
        (text) => {
          out.className = 'outcome ok';
          setText(out, text);
        },
        (err: Error) => {
          out.className = 'outcome failed';
          setText(out, err.message);
        },
      )
      .finally(() => {
        for (const b of buttons) b.disabled = false;
      });
  });
}

export function formsView(model: Model, api: Api): void {
  const transfer = byId<HTMLFormElement>('transfer-form');
  const from = byId<HTMLSelectElement>('transfer-from');
  const targets = byId<HTMLDataListElement>('transfer-targets');
  onSubmit(transfer, byId('transfer-outcome'), async () => {
    const memo = field(transfer, 'memo');
    const r: TransferRequest = {
      from: field(transfer, 'from'),
      to: field(transfer, 'to'),
      amount: field(transfer, 'amount'),
      ...(memo === '' ? {} : { memo }),
    };
    const t = await api.transfer(r);
    if (t.submit.status === 'rejected') throw new Error(`rejected: ${t.submit.error ?? 'no reason'}`);
    if (t.receipt?.status === 'confirmed')
      return `confirmed at height ${t.receipt.block_height} · ${t.tx_hash}`;
    throw new Error(
      `${t.receipt?.status ?? 'sent'}${t.receipt?.error ? `: ${t.receipt.error}` : ''} · ${t.tx_hash}`,
    );
  });

  const add = byId<HTMLFormElement>('add-form');
  onSubmit(add, byId('add-outcome'), async () => {
    const name = field(add, 'name');
    const stake = field(add, 'stake');
    const a = await api.add({ ...(name === '' ? {} : { name }), ...(stake === '' ? {} : { stake }) });
    return `${a.name} joined at height ${a.height}: ${a.rpc}`;
  });

  onSubmit(byId<HTMLFormElement>('save-form'), byId('save-outcome'), async () => {
    const s = await api.save();
    const heights = Object.entries(s.heights).map(([n, h]) => `${n} ${h ?? '-'}`);
    return `saved ${s.file} (heights ${heights.join(', ')}): devnet up --from it restores the devnet`;
  });

  model.on('info', () => {
    const accounts = model.info?.accounts ?? [];
    if ([...from.options].map((o) => o.value).join() === accounts.map((a) => a.name).join()) return;
    fill(
      from,
      ...accounts.map((a) => h('option', { value: a.name }, `${a.name} (${a.address.slice(0, 12)}…)`)),
    );
  });
  model.on('nodes', () => {
    const names = [...(model.info?.accounts ?? []).map((a) => a.name), ...model.nodes.map((n) => n.name)];
    if ([...targets.options].map((o) => o.value).join() === names.join()) return;
    fill(targets, ...names.map((n) => h('option', { value: n })));
  });
}

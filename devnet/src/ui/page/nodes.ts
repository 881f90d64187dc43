/**
 * The nodes table: per node its run state, height, last hash, peers, round, validator status
 * and version (as the devnet runs it, and as the node reports it: devnet status's VERSION), and the operations that make sense in its state (the same as `devnet kill NODE` …).
 * Rows are updated in place, so a button keeps the keyboard focus while the numbers change.
 */

import { diskSummary } from '../../devnet/diskShown.js';
import type { NodeStatus } from '../../devnet/nodeStatus.js';
import { netSummary } from '../../net/shown.js';
import type { NodeOp } from '../../operations/nodeOp.js';
import { byId, h, setText } from './dom.js';
import { shortHash } from './format.js';
import type { Model } from './model.js';
import type { Palette } from './palette.js';

/** The run state a person reads: the runtime's, with a node cut off the network said so. */
export function runState(n: NodeStatus): string {
  if (n.state === 'running' && n.disconnected) return 'disconnected';
  if (n.state === 'running' && !n.up) return 'starting';
  return n.state === 'absent' ? 'stopped' : n.state;
}

/**
 * The button of each node operation (the devnet's one list, operations/nodeOp.ts: a Record, so an
 * operation added there has no page until it has a button here) and the states it is offered in;
 * the buttons stand in this order.
 */
const BUTTONS: Readonly<Record<NodeOp, { label: string; when: (n: NodeStatus) => boolean }>> = {
  start: { label: 'Start', when: (n) => n.state === 'stopped' || n.state === 'absent' },
  stop: { label: 'Stop', when: (n) => n.state === 'running' || n.state === 'paused' },
  kill: { label: 'Kill', when: (n) => n.state === 'running' || n.state === 'paused' },
  restart: { label: 'Restart', when: (n) => n.state === 'running' },
  pause: { label: 'Pause', when: (n) => n.state === 'running' },
  resume: { label: 'Resume', when: (n) => n.state === 'paused' },
  disconnect: { label: 'Disconnect', when: (n) => n.state === 'running' && !n.disconnected },
  connect: { label: 'Connect', when: (n) => n.disconnected },
};
const OPS = (Object.keys(BUTTONS) as NodeOp[]).map((op) => ({ op, ...BUTTONS[op] }));

interface Row {
  readonly tr: HTMLTableRowElement;
  readonly cells: Record<
    'state' | 'height' | 'hash' | 'peers' | 'round' | 'validator' | 'version' | 'net' | 'disk',
    HTMLElement
  >;
  readonly buttons: Map<string, HTMLButtonElement>;
}

/** One button per operation, in BUTTONS' order, each calling `act` with its operation. */
function opButtons(
  name: string,
  act: (op: NodeOp) => void,
): { actions: HTMLElement; buttons: Row['buttons'] } {
  const buttons = new Map<string, HTMLButtonElement>();
  const actions = h('td', { class: 'actions' });
  for (const { op, label } of OPS) {
    const b = h(
      'button',
      {
        type: 'button',
        class: `op op-${op}`,
        'aria-label': `${op} ${name}`,
        title: `devnet ${op} ${name}`,
      },
      label,
    );
    b.addEventListener('click', () => act(op));
    buttons.set(op, b);
    actions.append(b);
  }
  return { actions, buttons };
}

/** A node's row, its cells empty until drawn, its dot in the node's colour. */
function newRow(n: NodeStatus, palette: Palette, act: (op: NodeOp) => void): Row {
  // data-label: the column's name, shown beside the value where a narrow window stacks the cells.
  const cell = (cls: string, label: string) => h('td', { class: cls, 'data-label': label });
  const cells = {
    state: h('span', { class: 'badge' }),
    height: cell('num', 'height'),
    hash: cell('mono', 'hash'),
    peers: cell('num', 'peers'),
    round: cell('num', 'round'),
    validator: cell('', 'validator'),
    version: cell('mono', 'version'),
    net: cell('net', 'network'),
    disk: cell('disk', 'disk'),
  };
  const { actions, buttons } = opButtons(n.name, act);
  const tr = h(
    'tr',
    { 'data-node': n.name },
    h('th', { scope: 'row' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), n.name),
    h('td', { class: 'state' }, cells.state),
    cells.height,
    cells.hash,
    cells.peers,
    cells.round,
    cells.validator,
    cells.version,
    cells.net,
    cells.disk,
    actions,
  );
  (tr.querySelector('.dot') as HTMLElement).style.background = palette.of(n.name);
  return { tr, cells, buttons };
}

/** A row drawn from its node's status: the cells' text, the buttons its state offers, all off while one runs. */
function drawRow(r: Row, n: NodeStatus, busy: boolean): void {
  const state = runState(n);
  setText(r.cells.state, state);
  r.cells.state.className = `badge state-${state}`;
  setText(r.cells.height, n.height === null ? '–' : String(n.height));
  setText(r.cells.hash, shortHash(n.lastHash, 8));
  r.cells.hash.title = n.lastHash ?? '';
  setText(r.cells.peers, n.peers === null ? '–' : String(n.peers));
  setText(r.cells.round, n.round === null ? '–' : String(n.round));
  setText(r.cells.validator, n.validatorStatus ?? '–');
  setText(r.cells.version, n.nodeVersion === null ? n.version : `${n.version} (${n.nodeVersion})`);
  // Its network conditions (devnet net, zones, one-way partitions), one line.
  setText(r.cells.net, `${n.net?.zone ? `zone ${n.net.zone} · ` : ''}${netSummary(n.net)}`);
  // Its disk faults (devnet disk) and whether its writes fail, one line.
  setText(r.cells.disk, diskSummary(n.disk));
  for (const { op, when } of OPS) {
    const b = r.buttons.get(op)!;
    b.hidden = !when(n);
    b.disabled = busy;
  }
  r.tr.setAttribute('aria-busy', String(busy));
}

export function nodesView(
  model: Model,
  palette: Palette,
  run: (node: string, op: string) => Promise<void>,
): void {
  const body = byId<HTMLTableSectionElement>('nodes-body');
  const rows = new Map<string, Row>();
  /** The nodes an operation runs on now: their buttons are off until it ends. */
  const busy = new Set<string>();

  const act = (node: string, op: NodeOp) => {
    busy.add(node);
    draw();
    void run(node, op).finally(() => {
      busy.delete(node);
      draw();
    });
  };

  const rowOf = (n: NodeStatus): Row => {
    const existing = rows.get(n.name);
    if (existing !== undefined) return existing;
    const row = newRow(n, palette, (op) => act(n.name, op));
    rows.set(n.name, row);
    body.append(row.tr);
    return row;
  };

  const draw = () => {
    for (const n of model.nodes) drawRow(rowOf(n), n, busy.has(n.name));
  };
  model.on('nodes', draw);
}

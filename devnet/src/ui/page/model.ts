/**
 * The page's picture of the devnet: the snapshot the stream starts with, changed by each event
 * after it, bounded as the server's store is. Views subscribe to the parts they draw.
 */
import type { ChainTimeJson } from '../../devnet/chainTimeShown.js';
import type { NodeStatus } from '../../devnet/nodeStatus.js';
import type {
  Activity,
  BlockRow,
  PanelEventName,
  PanelEvents,
  PanelInfo,
  Sample,
  ValidatorRow,
} from '../shapes.js';

export type Part = 'info' | 'nodes' | 'blocks' | 'validators' | 'samples' | 'logs' | 'activity' | 'time';

const MAX_BLOCKS = 200;
const MAX_SAMPLES = 600;
const MAX_LOG_LINES = 300;

export class Model {
  info: PanelInfo | null = null;
  nodes: readonly NodeStatus[] = [];
  blocks: BlockRow[] = [];
  validators: readonly ValidatorRow[] = [];
  samples: Sample[] = [];
  readonly logs = new Map<string, string[]>();
  readonly activity = new Map<number, Activity>();
  time: ChainTimeJson | null = null;
  /** The lines of the last `log` event, for a view that appends rather than redraws. */
  lastLog: { node: string; lines: readonly string[] } | null = null;
  private readonly listeners = new Map<Part, (() => void)[]>();

  on(part: Part, f: () => void): void {
    this.listeners.set(part, [...(this.listeners.get(part) ?? []), f]);
  }

  private changed(...parts: Part[]): void {
    for (const p of parts)
      for (const f of this.listeners.get(p) ?? []) {
        try {
          f();
        } catch (e) {
          // One view failing must neither cut the stream nor stop the others: said on the console.
          console.error(`drawing ${p} failed:`, e);
        }
      }
  }

  apply<K extends PanelEventName>(name: K, data: PanelEvents[K]): void {
    const e = { name, data } as { [N in PanelEventName]: { name: N; data: PanelEvents[N] } }[PanelEventName];
    switch (e.name) {
      case 'snapshot':
        this.info = e.data.info;
        this.nodes = e.data.nodes;
        this.blocks = [...e.data.blocks];
        this.validators = e.data.validators;
        this.samples = [...e.data.samples];
        this.logs.clear();
        for (const l of e.data.logs) this.logs.set(l.node, [...l.lines]);
        this.lastLog = null;
        this.activity.clear();
        for (const a of e.data.activity) this.activity.set(a.id, a);
        this.time = e.data.time;
        this.changed('info', 'nodes', 'blocks', 'validators', 'samples', 'logs', 'activity', 'time');
        return;
      case 'info':
        this.info = e.data;
        this.changed('info');
        return;
      case 'nodes':
        this.nodes = e.data;
        this.changed('nodes');
        return;
      case 'blocks':
        this.blocks.push(...e.data);
        if (this.blocks.length > MAX_BLOCKS) this.blocks.splice(0, this.blocks.length - MAX_BLOCKS);
        this.changed('blocks');
        return;
      case 'validators':
        this.validators = e.data;
        this.changed('validators');
        return;
      case 'sample':
        this.samples.push(e.data);
        if (this.samples.length > MAX_SAMPLES) this.samples.splice(0, this.samples.length - MAX_SAMPLES);
        this.changed('samples');
        return;
      case 'log': {
        const lines = this.logs.get(e.data.node) ?? [];
        lines.push(...e.data.lines);
        if (lines.length > MAX_LOG_LINES) lines.splice(0, lines.length - MAX_LOG_LINES);
        this.logs.set(e.data.node, lines);
        this.lastLog = e.data;
        this.changed('logs');
        this.lastLog = null;
        return;
      }
      case 'time':
        this.time = e.data;
        this.changed('time');
        return;
      case 'activity':
        this.activity.delete(e.data.id);
        this.activity.set(e.data.id, e.data);
        while (this.activity.size > 50) this.activity.delete(this.activity.keys().next().value!);
        this.changed('activity');
        return;
    }
  }
}

/**
 * What the panel knows, bounded: the nodes' last status, the last blocks, the validators, the
 * charts' samples of the last minutes, each node's last log lines, the last actions and the
 * chain's time control. Every
 * change is published to the pages as it is made; a page that connects gets `snapshot()`.
 */
import type { ChainTimeJson } from '../devnet/chainTimeShown.js';
import type { NodeStatus } from '../devnet/nodeStatus.js';
import type { EventHub } from './hub.js';
import { Ring } from './ring.js';
import type { Activity, BlockRow, PanelInfo, PanelSnapshot, Sample, ValidatorRow } from './shapes.js';

export interface StoreBounds {
  readonly blocks: number;
  readonly samples: number;
  readonly logLines: number;
  readonly activity: number;
}

export const DEFAULT_BOUNDS: StoreBounds = { blocks: 200, samples: 600, logLines: 300, activity: 50 };

export class PanelStore {
  private nodes: readonly NodeStatus[] = [];
  private validators: readonly ValidatorRow[] = [];
  private readonly blocks: Ring<BlockRow>;
  private samples: Ring<Sample>;
  private readonly logs = new Map<string, Ring<string>>();
  private readonly activity: Ring<Activity>;
  private time: ChainTimeJson | null = null;

  constructor(
    private info: PanelInfo,
    private readonly hub: EventHub,
    readonly bounds: StoreBounds = DEFAULT_BOUNDS,
  ) {
    this.blocks = new Ring(bounds.blocks);
    this.samples = new Ring(bounds.samples);
    this.activity = new Ring(bounds.activity);
  }

  /** The highest block kept, 0 before the first. */
  get lastHeight(): number {
    return this.blocks.last()?.height ?? 0;
  }

  setInfo(info: PanelInfo): void {
    if (JSON.stringify(info) === JSON.stringify(this.info)) return;
    this.info = info;
    this.hub.publish('info', info);
  }

  setNodes(nodes: readonly NodeStatus[]): void {
    this.nodes = nodes;
    this.hub.publish('nodes', nodes);
  }

  setValidators(validators: readonly ValidatorRow[]): void {
    if (JSON.stringify(validators) === JSON.stringify(this.validators)) return;
    this.validators = validators;
    this.hub.publish('validators', validators);
  }

  setTime(time: ChainTimeJson): void {
    if (JSON.stringify(time) === JSON.stringify(this.time)) return;
    this.time = time;
    this.hub.publish('time', time);
  }

  /** New blocks, oldest first, each above the last one kept. */
  addBlocks(blocks: readonly BlockRow[]): void {
    const fresh = blocks.filter((b, i) => b.height > (i === 0 ? this.lastHeight : blocks[i - 1]!.height));
    if (fresh.length === 0) return;
    this.blocks.push(...fresh);
    this.hub.publish('blocks', fresh);
  }

  /** The charts' past (from Prometheus), before any sample of this panel's own. */
  addHistory(samples: readonly Sample[]): void {
    const first = this.samples.toArray()[0]?.t ?? Number.POSITIVE_INFINITY;
    const earlier = samples.filter((s) => s.t < first);
    if (earlier.length === 0) return;
    const merged = new Ring<Sample>(this.bounds.samples);
    merged.push(...earlier, ...this.samples.toArray());
    this.samples = merged;
  }

  addSample(sample: Sample): void {
    this.samples.push(sample);
    this.hub.publish('sample', sample);
  }

  /** The ring of a node's log lines (made on first use). */
  logOf(node: string): Ring<string> {
    let ring = this.logs.get(node);
    if (ring === undefined) {
      ring = new Ring(this.bounds.logLines);
      this.logs.set(node, ring);
    }
    return ring;
  }

  addLogLines(node: string, lines: readonly string[]): void {
    this.logOf(node).push(...lines);
    this.hub.publish('log', { node, lines: lines.slice(-this.bounds.logLines) });
  }

  /** Forgets the logs of nodes no longer in the devnet. */
  keepLogsOf(names: readonly string[]): void {
    for (const node of this.logs.keys()) if (!names.includes(node)) this.logs.delete(node);
  }

  addActivity(a: Activity): void {
    this.activity.push(a);
    this.hub.publish('activity', a);
  }

  snapshot(): PanelSnapshot {
    return {
      info: this.info,
      nodes: this.nodes,
      blocks: this.blocks.toArray(),
      validators: this.validators,
      samples: this.samples.toArray(),
      logs: [...this.logs].map(([node, ring]) => ({ node, lines: ring.toArray() })),
      // An action is reported when it starts and when it ends: its last word, in start order.
      activity: [...new Map(this.activity.toArray().map((a) => [a.id, a])).values()],
      time: this.time,
    };
  }
}

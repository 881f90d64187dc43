/**
 * The charts, over the last minutes (the samples the server keeps): height, mempool, CPU and
 * memory per node, transactions per second and the block interval. Drawn with uPlot (a small
 * canvas chart library, bundled into the page). Each chart also says its latest values in its
 * accessible name, since a canvas says nothing to a screen reader.
 */
import uPlot from 'uplot';
import type { NodeSample, Sample } from '../shapes.js';
import { byId, fill, h } from './dom.js';
import { clock } from './format.js';
import type { Model } from './model.js';
import type { Palette } from './palette.js';

interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly unit: string;
  /** A series per node, or one for the chain. */
  readonly values:
    | { readonly perNode: (s: NodeSample) => number | null }
    | { readonly chain: (s: Sample) => number | null; readonly label: string };
  readonly digits: number;
}

const CHARTS: readonly ChartSpec[] = [
  { id: 'height', title: 'Height per node', unit: '', values: { perNode: (s) => s.height }, digits: 0 },
  {
    id: 'interval',
    title: 'Block interval',
    unit: 's',
    values: { chain: (s) => s.blockInterval, label: 'interval' },
    digits: 2,
  },
  {
    id: 'tps',
    title: 'Transactions per second',
    unit: '/s',
    values: { chain: (s) => s.tps, label: 'tx/s' },
    digits: 2,
  },
  { id: 'mempool', title: 'Mempool', unit: ' txs', values: { perNode: (s) => s.mempool }, digits: 0 },
  {
    id: 'cpu',
    title: 'CPU per node',
    unit: '%',
    values: { perNode: (s) => (s.cpu === null ? null : s.cpu * 100) },
    digits: 0,
  },
  {
    id: 'memory',
    title: 'Memory per node',
    unit: ' MiB',
    values: { perNode: (s) => (s.memory === null ? null : s.memory / 2 ** 20) },
    digits: 0,
  },
];

const WHOLE_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6, 1e7, 1e8, 1e9,
];

const AXIS = {
  stroke: '#c9d1d9',
  grid: { stroke: 'rgba(201, 209, 217, 0.12)' },
  ticks: { stroke: 'rgba(201, 209, 217, 0.2)' },
};

class Chart {
  private plot: uPlot | null = null;
  private seriesKey = '';
  readonly box: HTMLElement;
  private readonly area: HTMLElement;

  constructor(
    private readonly spec: ChartSpec,
    private readonly palette: Palette,
  ) {
    this.area = h('div', { class: 'plot' });
    this.box = h(
      'figure',
      { class: 'chart', id: `chart-${spec.id}`, role: 'img', 'aria-label': spec.title },
      h('figcaption', {}, spec.title),
      this.area,
    );
  }

  draw(samples: readonly Sample[], nodes: readonly string[]): void {
    const v = this.spec.values;
    const names = 'perNode' in v ? nodes : [v.label];
    const x = samples.map((s) => s.t / 1000);
    const ys = names.map((name) =>
      samples.map((s) => {
        if ('chain' in v) return v.chain(s);
        const n = s.nodes[name];
        return n === undefined ? null : v.perNode(n);
      }),
    );
    const key = names.join(',');
    const width = Math.max(200, this.area.clientWidth);
    if (this.plot === null || key !== this.seriesKey) {
      this.plot?.destroy();
      this.seriesKey = key;
      this.plot = new uPlot(
        {
          width,
          height: 140,
          // One legend for all, above the charts (the nodes' colors); each chart's values are in its name.
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true } },
          // Room on the right for the last time label, centred on its tick (half of "04:04:15").
          padding: [8, 32, 0, 0],
          axes: [
            { ...AXIS, values: (_u, splits) => splits.map((t) => clock(t * 1000)) },
            {
              ...AXIS,
              size: 56,
              // Counts (heights, transactions) get whole-number steps only: no "0, 1, 1".
              ...(this.spec.digits === 0 ? { incrs: WHOLE_STEPS } : {}),
              values: (_u, splits) => splits.map((s) => `${+s.toFixed(this.spec.digits)}`),
            },
          ],
          series: [
            {},
            ...names.map((name) => ({
              label: name,
              stroke: 'perNode' in v ? this.palette.of(name) : '#6cb6ff',
              width: 2,
              spanGaps: false,
              value: (_u: uPlot, y: number | null) =>
                y === null ? '–' : `${y.toFixed(this.spec.digits)}${this.spec.unit}`,
            })),
          ],
        },
        [x, ...ys],
        this.area,
      );
    } else this.plot.setData([x, ...ys]);
    const latest = names
      .map((name, i) => {
        const y = ys[i]![ys[i]!.length - 1];
        return `${name} ${y === null || y === undefined ? 'no value' : `${y.toFixed(this.spec.digits)}${this.spec.unit}`}`;
      })
      .join(', ');
    this.box.setAttribute('aria-label', `${this.spec.title}: ${latest}`);
  }

  resize(): void {
    this.plot?.setSize({ width: Math.max(200, this.area.clientWidth), height: 140 });
  }
}

export function chartsView(model: Model, palette: Palette): void {
  const grid = byId('charts-grid');
  const source = byId('charts-source');
  const charts = CHARTS.map((c) => new Chart(c, palette));
  grid.append(...charts.map((c) => c.box));
  const legend = byId('charts-legend');
  let legendOf = '';
  const draw = () => {
    const nodes = model.nodes.map((n) => n.name);
    for (const c of charts) c.draw(model.samples, nodes);
    if (legendOf === nodes.join()) return;
    legendOf = nodes.join();
    fill(
      legend,
      ...nodes.map((name) => {
        const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
        swatch.style.background = palette.of(name);
        return h('li', {}, swatch, name);
      }),
    );
  };
  model.on('samples', draw);
  model.on('info', () => {
    const i = model.info;
    if (i === null) return;
    source.textContent =
      i.samplesFrom === 'prometheus' ? `from Prometheus (${i.prometheus})` : "from the nodes' /metrics";
  });
  new ResizeObserver(() => {
    for (const c of charts) c.resize();
  }).observe(grid);
}

/**
 * A line chart as an SVG file, for the benchmarks' plots in docs/: panels side by side, each
 * with its x values (the conditions, evenly spaced and labelled as given) and a line per series.
 * Plain SVG 1.1 text, no library: the docs show it as an image.
 */

export interface Series {
  readonly label: string;
  /** One value per x of its panel (null: not measured). */
  readonly values: readonly (number | null)[];
}

export interface Panel {
  readonly title: string;
  readonly xLabel: string;
  readonly xs: readonly string[];
  readonly yLabel: string;
  readonly series: readonly Series[];
}

const W = 320;
const H = 240;
const M = { left: 52, right: 12, top: 28, bottom: 44 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round step for about five ticks up to `max`. */
function tickStep(max: number): number {
  const raw = max / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw)!;
}

function panelSvg(p: Panel, at: number): string {
  const all = p.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const step = tickStep(Math.max(1e-9, ...all));
  const top = Math.ceil(Math.max(step, ...all) / step) * step;
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (i: number) => at + M.left + (p.xs.length === 1 ? pw / 2 : (i * pw) / (p.xs.length - 1));
  const y = (v: number) => M.top + ph - (v / top) * ph;
  const out = [
    `<text x="${at + W / 2}" y="16" text-anchor="middle" font-weight="bold">${esc(p.title)}</text>`,
    `<line x1="${at + M.left}" y1="${M.top + ph}" x2="${at + M.left + pw}" y2="${M.top + ph}" stroke="#333"/>`,
    `<line x1="${at + M.left}" y1="${M.top}" x2="${at + M.left}" y2="${M.top + ph}" stroke="#333"/>`,
  ];
  for (let v = 0; v <= top + 1e-9; v += step) {
    const label = Number(v.toPrecision(6));
    out.push(
      `<line x1="${at + M.left}" y1="${y(v)}" x2="${at + M.left + pw}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${at + M.left - 4}" y="${y(v) + 4}" text-anchor="end">${label}</text>`,
    );
  }
  for (const [i, xv] of p.xs.entries())
    out.push(`<text x="${x(i)}" y="${M.top + ph + 16}" text-anchor="middle">${esc(xv)}</text>`);
  out.push(
    `<text x="${at + M.left + pw / 2}" y="${H - 8}" text-anchor="middle">${esc(p.xLabel)}</text>`,
    `<text transform="translate(${at + 12},${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(p.yLabel)}</text>`,
  );
  for (const [k, s] of p.series.entries()) {
    const colour = COLOURS[k % COLOURS.length]!;
    const points = s.values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`]));
    out.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.join(' ')}"/>`);
    for (const pt of points) {
      const [cx, cy] = pt.split(',');
      out.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${colour}"/>`);
    }
    out.push(
      `<text x="${at + M.left + 8}" y="${M.top + 14 + 14 * k}" fill="${colour}">${esc(s.label)}</text>`,
    );
  }
  return out.join('\n');
}

/** The SVG text of `panels`, side by side, with `title` its alternative text. */
export function lineChartSvg(
  panels: readonly Panel[],
  title = panels.map((p) => p.title).join('; '),
): string {
  const width = W * panels.length;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${H}" viewBox="0 0 ${width} ${H}" font-family="sans-serif" font-size="11">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${H}" fill="white"/>`,
    ...panels.map((p, i) => panelSvg(p, i * W)),
    '</svg>',
    '',
  ].join('\n');
}

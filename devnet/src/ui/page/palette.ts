/**
 * One color per node, the same in the block stream, the charts and the tables, so that a
 * proposer is recognised at a glance. Every color reads on the page's dark background with a
 * contrast of at least 4.5:1 (WCAG AA for text); names are always written too, never color alone.
 */
const COLORS = [
  '#6cb6ff', // blue
  '#f69d50', // orange
  '#57d9a3', // green
  '#dcbdfb', // violet
  '#f47067', // red
  '#e5c07b', // yellow
  '#56d4dd', // cyan
  '#ff9bce', // pink
  '#b4c66b', // olive
  '#c6a583', // tan
];

export class Palette {
  private readonly known = new Map<string, string>();

  /** The color of `name`; a name's color never changes once given. */
  of(name: string): string {
    let c = this.known.get(name);
    if (c === undefined) {
      c = COLORS[this.known.size % COLORS.length]!;
      this.known.set(name, c);
    }
    return c;
  }
}

/** One Prometheus text exposition (a node's /metrics), by `name` or `name{label="v",…}` exactly as written. */
export class Metrics {
  constructor(readonly samples: ReadonlyMap<string, number>) {}

  static parse(text: string): Metrics {
    const m = new Map<string, number>();
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const i = line.lastIndexOf(' ');
      m.set(line.slice(0, i), Number(line.slice(i + 1)));
    }
    return new Metrics(m);
  }

  /** The sample of `name` with exactly these labels (in the exposition's order), or undefined. */
  get(name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
    const keys = Object.entries(labels);
    if (keys.length === 0) return this.samples.get(name);
    const exact = this.samples.get(`${name}{${keys.map(([k, v]) => `${k}="${v}"`).join(',')}}`);
    if (exact !== undefined) return exact;
    // The same labels in another order.
    for (const [key, value] of this.samples) {
      if (!key.startsWith(`${name}{`)) continue;
      const got = labelsOf(key);
      if (got.size === keys.length && keys.every(([k, v]) => got.get(k) === v)) return value;
    }
    return undefined;
  }

  /** Every sample of `name`, by its label `label`. */
  byLabel(name: string, label: string): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, value] of this.samples) {
      if (!key.startsWith(`${name}{`)) continue;
      const v = labelsOf(key).get(label);
      if (v !== undefined) out.set(v, value);
    }
    return out;
  }
}

function labelsOf(key: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of key
    .slice(key.indexOf('{') + 1, -1)
    .matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
    out.set(m[1]!, m[2]!);
  return out;
}

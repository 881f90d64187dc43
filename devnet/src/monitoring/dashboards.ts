/**
 * The Grafana dashboards in dashboards/json, read as data: every panel query and every
 * template variable query, with Grafana's variables replaced by values that Prometheus accepts,
 * so that a test (or `devnet`) can run each query against a real Prometheus.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dashboardsPath } from '../base/repo.js';

/** dashboards/json as this package carries it (the build's copy, also where the package is installed). */
export function dashboardsDir(): string {
  return dashboardsPath('json');
}

/** The part of Grafana's dashboard model this module reads. */
export interface GrafanaTarget {
  readonly refId?: string;
  readonly expr?: string;
  readonly datasource?: { readonly type?: string; readonly uid?: string } | string | null;
  readonly hide?: boolean;
}

export interface GrafanaPanel {
  readonly id?: number;
  readonly type?: string;
  readonly title?: string;
  readonly targets?: readonly GrafanaTarget[];
  /** A collapsed row keeps its panels here. */
  readonly panels?: readonly GrafanaPanel[];
}

export interface GrafanaVariable {
  readonly name: string;
  readonly type: string;
  readonly query?: string | { readonly query?: string };
  readonly allValue?: string | null;
  readonly current?: { readonly value?: string | readonly string[] };
}

export interface GrafanaDashboard {
  readonly uid: string;
  readonly title: string;
  readonly panels: readonly GrafanaPanel[];
  readonly templating?: { readonly list?: readonly GrafanaVariable[] };
}

export interface LoadedDashboard {
  readonly file: string;
  readonly dashboard: GrafanaDashboard;
}

/** A query as a test or a person names it: `Chain overview / Height per node / A`. */
export interface QueryName {
  readonly dashboard: string;
  readonly panel: string;
  readonly refId: string;
}

export type DashboardQuery =
  | (QueryName & {
      readonly kind: 'expr';
      /** The PromQL to send, variables substituted. */
      readonly expr: string;
      /** As written in the dashboard. */
      readonly raw: string;
    })
  | (QueryName & {
      readonly kind: 'label_values';
      /** `label_values(match, label)`: the values of `label` on the series `match` (or on any). */
      readonly label: string;
      readonly match: string | null;
      readonly raw: string;
    });

export function queryName(q: QueryName): string {
  return `${q.dashboard} / ${q.panel} / ${q.refId}`;
}

/**
 * Values for Grafana's built-in variables. $__rate_interval is Grafana's choice for rate()
 * windows (at least four scrape intervals); 1m covers scrape intervals up to 15 s.
 */
export const BUILTIN_VALUES: Readonly<Record<string, string>> = {
  __rate_interval: '1m',
  __interval: '15s',
  __interval_ms: '15000',
  __range: '5m',
  __range_s: '300',
  __range_ms: '300000',
};

/** Every dashboard in `dir` (default dashboards/json), in file name order. */
export async function loadDashboards(dir: string = dashboardsDir()): Promise<LoadedDashboard[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const out: LoadedDashboard[] = [];
  for (const f of files) {
    const file = join(dir, f);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      throw new Error(`${file}: not JSON: ${(e as Error).message}`);
    }
    out.push({ file, dashboard: asDashboard(json, file) });
  }
  return out;
}

function asDashboard(json: unknown, file: string): GrafanaDashboard {
  const d = json as Partial<GrafanaDashboard> | null;
  if (d === null || typeof d !== 'object') throw new Error(`${file}: not a dashboard object`);
  if (typeof d.uid !== 'string' || d.uid === '') throw new Error(`${file}: no uid`);
  if (typeof d.title !== 'string' || d.title === '') throw new Error(`${file}: no title`);
  if (!Array.isArray(d.panels)) throw new Error(`${file}: no panels`);
  return d as GrafanaDashboard;
}

/** Every panel that can hold queries, rows' children included (a row itself holds none). */
export function panelsOf(d: GrafanaDashboard): GrafanaPanel[] {
  const out: GrafanaPanel[] = [];
  const walk = (ps: readonly GrafanaPanel[]) => {
    for (const p of ps) {
      if (p.type === 'row') walk(p.panels ?? []);
      else out.push(p);
    }
  };
  walk(d.panels);
  return out;
}

/**
 * The value a dashboard variable takes when every option is selected: its allValue (`.+` for
 * the `node` variable), else a regex matching anything; constants and custom or interval
 * variables take their current value.
 */
export function variableValues(d: GrafanaDashboard): Record<string, string> {
  const values: Record<string, string> = {};
  for (const v of d.templating?.list ?? []) {
    if (v.type === 'query') values[v.name] = v.allValue ?? '.+';
    else {
      const cur = v.current?.value;
      const first = Array.isArray(cur) ? cur[0] : cur;
      if (typeof first !== 'string' || first === '' || first === '$__all') {
        throw new Error(`${d.title}: variable $${v.name} (${v.type}) has no current value to substitute`);
      }
      values[v.name] = first;
    }
  }
  return values;
}

// ${name}, ${name:format}, [[name]], [[name:format]], $name.
// ($1 in a label_replace replacement is not a variable: names start with a letter or _.)
const VARIABLE = /\$\{([A-Za-z_]\w*)(?::[^}]*)?\}|\[\[([A-Za-z_]\w*)(?::[^\]]*)?\]\]|\$([A-Za-z_]\w*)/g;

/** Replaces Grafana variables in `expr`; an unknown variable is an error (a typo in a dashboard). */
export function substituteVariables(expr: string, values: Readonly<Record<string, string>>): string {
  return expr.replace(VARIABLE, (whole, a?: string, b?: string, c?: string) => {
    const name = a ?? b ?? c!;
    const value = values[name] ?? BUILTIN_VALUES[name];
    if (value === undefined) throw new Error(`unknown variable ${whole} in ${JSON.stringify(expr)}`);
    return value;
  });
}

function variableQueryText(v: GrafanaVariable): string | null {
  if (typeof v.query === 'string') return v.query;
  return v.query?.query ?? null;
}

/** label_values(label) or label_values(selector, label), Grafana's Prometheus variable query. */
export function parseLabelValues(q: string): { label: string; match: string | null } | null {
  const m = /^\s*label_values\(\s*(?:(.*\S)\s*,\s*)?([A-Za-z_]\w*)\s*\)\s*$/s.exec(q);
  if (!m) return null;
  return { label: m[2]!, match: m[1] ?? null };
}

/** Every query of one dashboard: its query variables, then each visible panel target. */
export function dashboardQueries(d: GrafanaDashboard): DashboardQuery[] {
  const values = variableValues(d);
  const out: DashboardQuery[] = [];
  for (const v of d.templating?.list ?? []) {
    if (v.type !== 'query') continue;
    const raw = variableQueryText(v);
    if (raw === null) throw new Error(`${d.title}: variable $${v.name} has no query`);
    const lv = parseLabelValues(raw);
    const name = { dashboard: d.title, panel: `variable $${v.name}`, refId: v.name };
    if (lv) {
      const match = lv.match === null ? null : substituteVariables(lv.match, values);
      out.push({ ...name, kind: 'label_values', label: lv.label, match, raw });
    } else {
      const qr = /^\s*query_result\((.*)\)\s*$/s.exec(raw);
      if (!qr) throw new Error(`${d.title}: variable $${v.name}: unsupported query ${JSON.stringify(raw)}`);
      out.push({ ...name, kind: 'expr', expr: substituteVariables(qr[1]!, values), raw });
    }
  }
  for (const p of panelsOf(d)) {
    for (const t of p.targets ?? []) {
      if (t.hide === true || typeof t.expr !== 'string') continue;
      out.push({
        kind: 'expr',
        dashboard: d.title,
        panel: p.title ?? `panel ${p.id ?? '?'}`,
        refId: t.refId ?? '?',
        expr: substituteVariables(t.expr, values),
        raw: t.expr,
      });
    }
  }
  return out;
}

/** Every query of every dashboard in `dir` (default dashboards/json). */
export async function listDashboardQueries(dir?: string): Promise<DashboardQuery[]> {
  return (await loadDashboards(dir)).flatMap((l) => dashboardQueries(l.dashboard));
}

/**
 * Runs dashboard queries against a Prometheus (its HTTP API, global fetch) and tells which
 * ones give nothing to draw: no series, only NaN samples, or an error. Panel queries go
 * through /api/v1/query (an instant query at "now"); `label_values` variables through
 * /api/v1/label/<label>/values, as Grafana does.
 */
import { waitForOrNull } from '@chain-devnet/kit/wait';
import { type DashboardQuery, queryName } from './dashboards.js';
import { prometheusApi as api, type PromSample } from './prometheusApi.js';

export interface QueryProblem {
  readonly query: DashboardQuery;
  /** `Dashboard / Panel / refId` */
  readonly name: string;
  /** `no series`, `only NaN samples`, or the error Prometheus (or the network) gave. */
  readonly problem: string;
}

export interface CheckOptions {
  /** Per request; default 5 s. */
  readonly timeoutMs?: number;
  /** Requests in flight at once; default 8. */
  readonly concurrency?: number;
}

type Sample = PromSample;

const isNumber = (v: string): boolean => v !== 'NaN';

/** Why `q` has nothing to show on `baseUrl`, or null when it returns data. */
export async function queryProblem(
  baseUrl: string,
  q: DashboardQuery,
  timeoutMs = 5000,
): Promise<string | null> {
  const base = baseUrl.replace(/\/+$/, '');
  try {
    if (q.kind === 'label_values') {
      const params = new URLSearchParams();
      if (q.match !== null) params.append('match[]', q.match);
      const body = await api(
        `${base}/api/v1/label/${encodeURIComponent(q.label)}/values?${params}`,
        timeoutMs,
      );
      const values = body.data as string[];
      return values.some((v) => v !== '') ? null : 'no label values';
    }
    const body = await api(`${base}/api/v1/query?${new URLSearchParams({ query: q.expr })}`, timeoutMs);
    const data = body.data as { resultType: string; result: unknown };
    switch (data.resultType) {
      case 'vector': {
        const result = data.result as { value: Sample }[];
        if (result.length === 0) return 'no series';
        return result.some((s) => isNumber(s.value[1])) ? null : 'only NaN samples';
      }
      case 'matrix': {
        const result = data.result as { values: Sample[] }[];
        if (result.length === 0) return 'no series';
        return result.some((s) => s.values.some((v) => isNumber(v[1]))) ? null : 'only NaN samples';
      }
      case 'scalar':
        return isNumber((data.result as Sample)[1]) ? null : 'only NaN samples';
      default:
        return `unexpected result type ${data.resultType}`;
    }
  } catch (e) {
    return `query failed: ${(e as Error).message}`;
  }
}

/** The queries of `queries` that return no data now, each with the reason. */
export async function queriesWithoutData(
  baseUrl: string,
  queries: readonly DashboardQuery[],
  o: CheckOptions = {},
): Promise<QueryProblem[]> {
  const problems: (QueryProblem | null)[] = new Array(queries.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const i = next++;
      const q = queries[i]!;
      const problem = await queryProblem(baseUrl, q, o.timeoutMs);
      if (problem !== null) problems[i] = { query: q, name: queryName(q), problem };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 8) }, worker));
  return problems.filter((p): p is QueryProblem => p !== null);
}

export interface WaitOptions {
  /** The whole wait; default 60 s. */
  readonly timeoutMs?: number;
  /** Between rounds; default 1 s. */
  readonly intervalMs?: number;
  /** Per request; default 5 s. */
  readonly requestTimeoutMs?: number;
  readonly concurrency?: number;
}

/**
 * Asks every query again every `intervalMs` until all of them return data in the same round,
 * or `timeoutMs` has passed; resolves with the problems of the last round (empty: all had data).
 */
export async function waitForData(
  baseUrl: string,
  queries: readonly DashboardQuery[],
  o: WaitOptions = {},
): Promise<QueryProblem[]> {
  let problems: QueryProblem[] = [];
  const allAnswered = await waitForOrNull(
    `every dashboard query to return data from ${baseUrl}`,
    o.timeoutMs ?? 60_000,
    async () => {
      problems = await queriesWithoutData(baseUrl, queries, {
        timeoutMs: o.requestTimeoutMs ?? 5000,
        ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
      });
      return problems.length === 0;
    },
    { pollMs: o.intervalMs ?? 1000 },
  );
  return allAnswered === null ? problems : [];
}

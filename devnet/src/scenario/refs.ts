/**
 * A step hands what it produced to later steps: `as: pay` on a step names its result, and
 * `${pay}` or `${pay.hash}` in a later step's text stands for it. A text that is one reference
 * alone becomes the value itself (a height stays a number); inside longer text it is spliced in.
 * References are checked with the file: each must name an earlier step's `as`, and a field that
 * step's kind produces.
 */

/** A step kind (schema.ts's StepKind; a plain string here, as the schema reads this file). */
type StepKind = string;

/** What each kind of step produces, its default field first (a market step: by its action). */
const PRODUCES: Readonly<Record<StepKind, readonly string[]>> = {
  tx: ['hash', 'height', 'from'],
  add: ['node', 'height'],
  'market post': ['task', 'hash', 'height'],
  'market claim': ['task', 'worker', 'height'],
};

/** The kind a step's results are known by: `market post`, `market claim`, or the kind. */
export function producerOf(kind: StepKind, body: unknown): string {
  if (kind !== 'market' || body === null || typeof body !== 'object') return kind;
  return `market ${Object.keys(body)[0] ?? ''}`;
}

/** The fields a producer gives; every step gives `height` (its default when it gives nothing else). */
export const fieldsOf = (producer: string): readonly string[] => PRODUCES[producer] ?? ['height'];

/** A step's results, by field. */
export type Produced = Readonly<Record<string, string | number>>;

const REF = /\$\{([A-Za-z][A-Za-z0-9_]*)(?:\.([A-Za-z]+))?\}/g;
/** A reference in a pattern of the schema (fields that take one where a number or a hex goes). */
export const REF_PATTERN = '^\\$\\{[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z]+)?\\}$';

export interface Reference {
  /** The field path where it stands, from the step (`expect.tx.hash`). */
  readonly path: string;
  readonly name: string;
  readonly field: string | null;
}

/** Every reference in a value, with its path below `at`. */
export function referencesIn(value: unknown, at: string): Reference[] {
  if (typeof value === 'string')
    return [...value.matchAll(REF)].map((m) => ({ path: at, name: m[1]!, field: m[2] ?? null }));
  if (Array.isArray(value)) return value.flatMap((v, i) => referencesIn(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => referencesIn(v, at === '' ? k : `${at}.${k}`));
  return [];
}

/** Whether a text holds a reference (its value is known only when the step runs). */
export const hasReference = (text: string): boolean => /\$\{[^}]*\}/.test(text);

export interface Named {
  readonly index: number;
  /** producerOf the step. */
  readonly kind: string;
}

/**
 * The problems of one step's references (`named`: the `as` of the steps before it) and of its
 * own `as`; every problem names the field path.
 */
export function referenceProblems(
  i: number,
  step: Readonly<Record<string, unknown>>,
  kind: StepKind,
  named: Map<string, Named>,
  later: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (const r of referencesIn({ [kind]: step[kind], at: step.at }, '')) {
    const path = `steps[${i}].${r.path}`;
    const ref = `\${${r.name}${r.field === null ? '' : `.${r.field}`}}`;
    const source = named.get(r.name);
    if (source === undefined)
      out.push(
        later.has(r.name)
          ? `${path}: ${ref} names a later step (a step may use only what the steps before it produced)`
          : `${path}: ${ref} names no step (steps name their results with as: NAME${named.size === 0 ? '' : `; named so far: ${[...named.keys()].join(', ')}`})`,
      );
    else if (r.field !== null && !fieldsOf(source.kind).includes(r.field))
      out.push(
        `${path}: ${ref}: steps[${source.index}] (${source.kind}) gives ${fieldsOf(source.kind).join(', ')}, not ${r.field}`,
      );
  }
  // Text with a stray ${ that is no reference: said, rather than sent as it is.
  for (const r of strays({ [kind]: step[kind], at: step.at }, '')) out.push(`steps[${i}].${r}`);
  return out;
}

function strays(value: unknown, at: string): string[] {
  if (typeof value === 'string')
    return value.replace(REF, '').includes('${')
      ? [`${at}: ${JSON.stringify(value)} has a \${ that is no reference like \${name} or \${name.field}`]
      : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => strays(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strays(v, at === '' ? k : `${at}.${k}`));
  return [];
}

/** A value with every reference replaced by what the named step produced. */
export function resolveReferences<T>(
  value: T,
  results: ReadonlyMap<string, { kind: string; produced: Produced }>,
): T {
  const lookup = (name: string, field: string | undefined): string | number => {
    const r = results.get(name);
    const f = field ?? fieldsOf(r?.kind ?? 'heal')[0]!;
    const v = r?.produced[f];
    // The check made sure of both; a step that failed stops the run before its users.
    if (v === undefined) throw new Error(`\${${name}${field === undefined ? '' : `.${field}`}} has no value`);
    return v;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\$\{([A-Za-z][A-Za-z0-9_]*)(?:\.([A-Za-z]+))?\}$/.exec(v);
      if (whole !== null) return lookup(whole[1]!, whole[2]);
      return v.replace(REF, (_, name: string, field: string | undefined) => String(lookup(name, field)));
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

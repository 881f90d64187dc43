/**
 * The JSON Schema half of the file check: ajv's errors said once per field, by field path, and
 * which parts of the file the schema refused (the rules after it look only at parts it accepted,
 * so no shape of input reaches code that trusts a type).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { fieldOf } from '../spec/manifest.js';
import { REF_PATTERN } from './refs.js';
import { SCENARIO_SCHEMA, STEP_KINDS } from './schema.js';
import { shown } from './shown.js';

// The shapes a oneOf allows, said once for the field (ajv's per-branch errors are noise).
const ONE_OF_SHAPES: Record<string, string> = {
  within: '{blocks: N} or {seconds: N}',
  for: '{blocks: N} or {seconds: N}',
  at: "{height: N} or {time: '10s'}",
  wait: '{blocks: N, nodes?: [...]} or {seconds: N}',
  accounts: 'a count or a list of account names',
  manifest: 'a path to a manifest file or a manifest object',
  error: 'a text the reason contains or {matches: REGEX}',
  taskId: 'a lowercase UUID or a reference like ${name.task}',
  task: 'a lowercase UUID or a reference like ${name.task}',
  resultHash: '64 lowercase hex digits or a reference like ${name.field}',
  market: '{post: {...}} or {claim: {...}}',
  chain:
    'pause, resume, {mine: N}, {until_height: H}, {until_epoch: E}, {block_time: D}, {time: +D} or {at: UNIX}',
};

let validate: ValidateFunction | null = null;

function describe(e: ErrorObject): string {
  const field = fieldOf(e.instancePath);
  const at = field === '' ? '' : `${field}.`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = String(p.additionalProperty);
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      if (/^steps\[\d+\]$/.test(field))
        return `${field}: unknown step kind "${extra}" (kinds: ${STEP_KINDS.join(', ')}; also at, name, as)`;
      if (field.endsWith('.expect'))
        return `${field}: unknown assertion "${extra}" (assertions: ${allowed.join(', ')})`;
      return `${at}${extra} is not a field here (fields: ${allowed.join(', ') || 'none'})`;
    }
    case 'required':
      return `${at}${String(p.missingProperty)} is required`;
    case 'enum':
      return `${field} must be one of ${((p.allowedValues as unknown[] | undefined) ?? []).join(', ')}, got ${shown(e.data)}`;
    case 'type':
      return `${field || 'the file'} must be ${p.type === 'array' ? 'a list' : `${String(p.type)}`}, got ${shown(e.data)}`;
    case 'pattern':
      if (p.pattern === REF_PATTERN)
        return `${field} must be a number or a reference like \${name.height}, got ${shown(e.data)}`;
      return field.endsWith('.time')
        ? `${field} must be a duration like 500ms, 10s or 2m, got ${shown(e.data)}`
        : /\.(stake|amount|fund|balance|atLeast|atMost|power|reward)$/.test(field)
          ? `${field} must be an amount like 1.5coin or wei digits, got ${shown(e.data)}`
          : field.endsWith('.deadline')
            ? `${field} must be a duration like 25s or 2m, got ${shown(e.data)}`
            : field.endsWith('.as')
              ? `${field} must be letters, digits and underscores, starting with a letter, got ${shown(e.data)}`
              : field === 'name'
                ? `${field} must be letters, digits, dots, dashes and underscores, got ${shown(e.data)}`
                : `${field} must match ${String(p.pattern)}, got ${shown(e.data)}`;
    case 'minProperties':
    case 'maxProperties':
      return field.endsWith('.market')
        ? `${field} takes exactly one action`
        : `${field} takes exactly one assertion`;
    default:
      return `${field || 'the file'} ${e.message ?? 'is invalid'}`;
  }
}

/**
 * The branch of a oneOf the data meant: the one whose required fields it has (`wait: {blocks: 0}`
 * meant the blocks form), or its type when one branch alone has it; null when that is not clear.
 */
function meantBranch(e: ErrorObject): number | null {
  const branches = e.schema as { required?: string[]; type?: string }[];
  const data = e.data as unknown;
  if (!Array.isArray(branches)) return null;
  const typeOf = Array.isArray(data) ? 'array' : data === null ? 'null' : typeof data;
  const byType = branches.flatMap((b, i) =>
    b.type === typeOf || (b.type === 'integer' && typeOf === 'number') ? [i] : [],
  );
  if (typeOf !== 'object') return byType.length === 1 ? byType[0]! : null;
  const record = data as Record<string, unknown>;
  const fits = branches.flatMap((b, i) =>
    (b.required ?? []).length > 0 && b.required!.every((k) => k in record) ? [i] : [],
  );
  if (fits.length === 1) return fits[0]!;
  return fits.length === 0 && byType.length === 1 ? byType[0]! : null;
}

export interface SchemaVerdict {
  /** One line per problem, each naming its field. */
  readonly problems: string[];
  /** Whether the schema refused anything at this JSON pointer, under it, or the type of a part above it. */
  readonly refused: (pointer: string) => boolean;
}

/**
 * The schema's problems, one per field: a failed oneOf reports the errors of the branch the data
 * meant, or else says the shapes it takes, once. The manifest's are left to its own checker.
 */
export function schemaProblems(value: unknown): SchemaVerdict {
  validate ??= new Ajv({ allErrors: true, verbose: true, strict: false }).compile(SCENARIO_SCHEMA);
  if (validate(value)) return { problems: [], refused: () => false };
  const all = validate.errors ?? [];
  const errors = all.filter((e) => !e.instancePath.startsWith('/manifest/'));
  const problems = new Set<string>();
  // Errors inside a failed oneOf's branches: kept only for the branch the data meant.
  const dropped = new Set<ErrorObject>();
  // anyOf: a field that takes its form or a reference (schema.ts orRef), said the same way.
  const either = (e: ErrorObject) => e.keyword === 'oneOf' || e.keyword === 'anyOf';
  for (const o of errors.filter(either)) {
    const meant = meantBranch(o);
    // The same schema path recurs for every step: a branch error is this oneOf's only under its data.
    const under = (e: ErrorObject) =>
      e.instancePath === o.instancePath || e.instancePath.startsWith(`${o.instancePath}/`);
    const inBranches = errors.filter(
      (e) => e !== o && under(e) && e.schemaPath.startsWith(`${o.schemaPath}/`),
    );
    for (const e of inBranches)
      if (meant === null || !e.schemaPath.startsWith(`${o.schemaPath}/${meant}/`)) dropped.add(e);
    if (meant !== null && inBranches.some((e) => !dropped.has(e))) dropped.add(o);
  }
  for (const e of errors) {
    if (dropped.has(e)) continue;
    // A manifest object is checked by the manifest's own checker, which names its fields.
    if (e.instancePath === '/manifest' && isPlainObject((value as { manifest?: unknown }).manifest)) continue;
    if (either(e)) {
      const field = fieldOf(e.instancePath);
      const last = (field.split('.').at(-1) ?? field).replace(/\[\d+\]$/, '');
      problems.add(`${field} must be ${ONE_OF_SHAPES[last] ?? 'one of the shapes docs/SCENARIOS.md gives'}`);
    } else problems.add(describe(e));
  }
  const refused = (pointer: string) =>
    all.some(
      (e) =>
        e.instancePath === pointer ||
        e.instancePath.startsWith(`${pointer}/`) ||
        (pointer.startsWith(`${e.instancePath}/`) && (e.keyword === 'type' || e.keyword === 'oneOf')),
    );
  return { problems: [...problems], refused };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads and checks a scenario file (YAML or JSON) before any devnet starts: the schema (ajv),
 * then what a schema cannot say (one kind per step, node names that exist, the manifest's own
 * rules). Every problem names its field path (`steps[3].kill.node: unknown node "validator-9"`);
 * all of them are reported at once, as a BAD_SCENARIO error.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { DevnetError } from '../errors.js';
import { checkManifest, fieldOf, type Manifest, parseManifestText } from '../spec/manifest.js';
import type { Scenario, ScenarioFile, Step } from './scenario.js';
import { SCENARIO_SCHEMA, STEP_KINDS, type StepKind } from './schema.js';

// The shapes a oneOf allows, said once for the field (ajv's per-branch errors are noise).
const ONE_OF_SHAPES: Record<string, string> = {
  within: '{blocks: N} or {seconds: N}',
  for: '{blocks: N} or {seconds: N}',
  at: "{height: N} or {time: '10s'}",
  wait: '{blocks: N, nodes?: [...]} or {seconds: N}',
  accounts: 'a count or a list of account names',
};

let validate: ValidateFunction | null = null;

function describe(e: ErrorObject): string {
  const field = fieldOf(e.instancePath);
  const at = field === '' ? '' : `${field}.`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = String(p.additionalProperty);
      const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
      if (/^steps\[\d+\]$/.test(field))
        return `${field}: unknown step kind "${extra}" (kinds: ${STEP_KINDS.join(', ')}; also at, name)`;
      if (field.endsWith('.expect'))
        return `${field}: unknown assertion "${extra}" (assertions: ${allowed.join(', ')})`;
      return `${at}${extra} is not a field here (fields: ${allowed.join(', ') || 'none'})`;
    }
    case 'required':
      return `${at}${String(p.missingProperty)} is required`;
    case 'enum':
      return `${field} must be one of ${(p.allowedValues as unknown[]).join(', ')}, got ${JSON.stringify(e.data)}`;
    case 'type':
      return `${field || 'the file'} must be ${String(p.type)}, got ${JSON.stringify(e.data)}`;
    case 'pattern':
      return field.endsWith('.time')
        ? `${field} must be a duration like 500ms, 10s or 2m, got ${JSON.stringify(e.data)}`
        : /\.(stake|amount|fund|balance|atLeast|atMost|power)$/.test(field)
          ? `${field} must be an amount like 1.5coin or wei digits, got ${JSON.stringify(e.data)}`
          : `${field} must be letters, digits, dots, dashes and underscores, got ${JSON.stringify(e.data)}`;
    case 'minProperties':
    case 'maxProperties':
      return `${field} takes exactly one assertion`;
    default:
      return `${field || 'the file'} ${e.message ?? 'is invalid'}`;
  }
}

/**
 * The branch of a oneOf the data meant: the one whose required fields it has (`wait: {blocks: 0}`
 * meant the blocks form), or null when that is not clear.
 */
function meantBranch(e: ErrorObject): number | null {
  const branches = e.schema as { required?: string[] }[];
  const data = e.data as Record<string, unknown> | null;
  if (data === null || typeof data !== 'object' || !Array.isArray(branches)) return null;
  const fits = branches.flatMap((b, i) =>
    (b.required ?? []).length > 0 && b.required!.every((k) => k in data) ? [i] : [],
  );
  return fits.length === 1 ? fits[0]! : null;
}

/**
 * The schema's problems, one per field: a failed oneOf reports the errors of the branch the data
 * meant, or else says the shapes it takes, once (ajv's per-branch errors are noise).
 */
function schemaProblems(value: unknown): string[] {
  validate ??= new Ajv({ allErrors: true, verbose: true, strict: false }).compile(SCENARIO_SCHEMA);
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).filter((e) => !e.instancePath.startsWith('/manifest'));
  const problems = new Set<string>();
  // Errors inside a failed oneOf's branches: kept only for the branch the data meant.
  const dropped = new Set<ErrorObject>();
  for (const o of errors.filter((e) => e.keyword === 'oneOf')) {
    const meant = meantBranch(o);
    // The same schema path recurs for every step: a branch error is this oneOf's only under its data.
    const under = (e: ErrorObject) =>
      e.instancePath === o.instancePath || e.instancePath.startsWith(`${o.instancePath}/`);
    const inBranches = errors.filter(
      (e) => e !== o && under(e) && e.schemaPath.startsWith(`${o.schemaPath}/`),
    );
    for (const e of inBranches)
      if (meant === null || !e.schemaPath.startsWith(`${o.schemaPath}/${meant}/`)) dropped.add(e);
    if (meant !== null) dropped.add(o);
  }
  for (const e of errors) {
    if (dropped.has(e)) continue;
    if (e.keyword === 'oneOf') {
      const field = fieldOf(e.instancePath);
      const last = field.split('.').at(-1) ?? field;
      problems.add(`${field} must be ${ONE_OF_SHAPES[last] ?? 'one of the shapes docs/SCENARIOS.md gives'}`);
    } else problems.add(describe(e));
  }
  return [...problems];
}

function nodeNamesOf(m: Manifest): string[] {
  const v = m.validators ?? 4;
  return typeof v === 'number'
    ? Array.from({ length: v }, (_, i) => `validator-${i}`)
    : v.map((x, i) => x.name ?? `validator-${i}`);
}

/** The field paths in a step that name nodes, with the names. */
function nodeRefs(kind: StepKind, step: Step): [string, string][] {
  const body = step[kind] as unknown;
  const refs: [string, string][] = [];
  const list = (path: string, names: unknown) => {
    if (Array.isArray(names))
      names.forEach((n, i) => {
        refs.push([`${path}[${i}]`, String(n)]);
      });
  };
  if (kind === 'partition')
    (body as string[][]).forEach((g, i) => {
      list(`partition[${i}]`, g);
    });
  else if (kind === 'expect') {
    const [assertion, arg] = Object.entries(body as Record<string, Record<string, unknown>>)[0]!;
    list(`expect.${assertion}.nodes`, arg.nodes);
    if (typeof arg.node === 'string') refs.push([`expect.${assertion}.node`, arg.node]);
    const other = arg.other as { node?: string } | undefined;
    if (typeof other?.node === 'string') refs.push([`expect.${assertion}.other.node`, other.node]);
  } else if (body !== null && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    if (kind !== 'add' && kind !== 'tx' && typeof o.node === 'string') refs.push([`${kind}.node`, o.node]);
    if (kind === 'tx' && typeof o.node === 'string') refs.push(['tx.node', o.node]);
    list(`${kind}.nodes`, o.nodes);
  }
  return refs;
}

export function stepLabel(i: number, kind: StepKind, step: Step): string {
  if (step.name !== undefined) return `steps[${i}] ${step.name}`;
  const body = step[kind] as Record<string, unknown> | unknown[];
  let what: string;
  if (kind === 'partition') what = (body as string[][]).map((g) => `[${g.join(', ')}]`).join(' ');
  else if (kind === 'expect') what = Object.keys(body)[0] ?? '';
  else if (kind === 'wait')
    what = 'blocks' in body ? `${body.blocks} blocks` : `${(body as { seconds: number }).seconds} s`;
  else if (kind === 'tx') what = `${(body as { type: string }).type} from ${(body as { from: string }).from}`;
  else
    what = String((body as { node?: string; name?: string }).node ?? (body as { name?: string }).name ?? '');
  return `steps[${i}] ${kind}${what === '' ? '' : ` ${what}`}`;
}

/**
 * Checks a parsed scenario; reads a manifest given by path (relative to `baseDir`). Returns the
 * scenario, or every problem.
 */
export async function checkScenario(
  value: unknown,
  source: string,
  baseDir: string,
): Promise<{ ok: true; scenario: Scenario } | { ok: false; problems: string[] }> {
  const problems = schemaProblems(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      ok: false,
      problems: problems.length > 0 ? problems : ['the file must be an object with steps'],
    };
  const file = value as ScenarioFile;

  let manifest: Manifest = {};
  // A manifest with problems names no nodes for sure: the steps' node names are not checked then.
  const manifestProblems = problems.length;
  if (typeof file.manifest === 'string') {
    const path = resolve(baseDir, file.manifest);
    try {
      manifest = parseManifestText(await readFile(path, 'utf8'), path);
    } catch (e) {
      problems.push(`manifest: ${(e as Error).message}`);
    }
  } else if (file.manifest !== undefined) {
    const checked = checkManifest(file.manifest);
    if (checked.ok) manifest = checked.manifest;
    else problems.push(...checked.problems.map((p) => `manifest.${p}`));
  }

  const nodesKnown = problems.length === manifestProblems;
  const known = nodeNamesOf(manifest);
  const unknown = (path: string, name: string) =>
    !nodesKnown || known.includes(name)
      ? []
      : [`${path}: unknown node "${name}" (nodes: ${known.join(', ')})`];
  const steps: Scenario['steps'][number][] = [];
  const stepList = Array.isArray(file.steps) ? file.steps : [];
  stepList.forEach((step, i) => {
    if (step === null || typeof step !== 'object') return;
    const kinds = STEP_KINDS.filter((k) => k in step);
    // A key that is no kind was named by the schema already ("unknown step kind").
    const unnamed = Object.keys(step).some(
      (k) => k !== 'at' && k !== 'name' && !(STEP_KINDS as string[]).includes(k),
    );
    if (kinds.length !== 1) {
      if (kinds.length === 0 && unnamed) return;
      problems.push(
        kinds.length === 0
          ? `steps[${i}]: no step kind (one of ${STEP_KINDS.join(', ')})`
          : `steps[${i}]: one step kind per step, found ${kinds.join(', ')}`,
      );
      return;
    }
    const kind = kinds[0]!;
    try {
      for (const [path, name] of nodeRefs(kind, step)) problems.push(...unknown(`steps[${i}].${path}`, name));
      if (kind === 'partition') {
        const all: string[] = (step.partition ?? []).flat();
        const twice = all.find((n, j) => all.indexOf(n) !== j);
        if (twice !== undefined) problems.push(`steps[${i}].partition: ${twice} is in two groups`);
      }
    } catch {
      // A shape the schema already named: nothing more to say about its nodes.
    }
    if (kind === 'add') known.push(step.add?.name ?? `validator-${known.length}`);
    steps.push({ kind, step, label: stepLabel(i, kind, step) });
  });
  file.load?.nodes?.forEach((n, i) => {
    problems.push(...unknown(`load.nodes[${i}]`, n));
  });
  file.invariants?.byzantine?.forEach((n, i) => {
    problems.push(...unknown(`invariants.byzantine[${i}]`, n));
  });

  if (problems.length > 0) return { ok: false, problems: [...new Set(problems)].sort(byField) };
  return {
    ok: true,
    scenario: { source, name: file.name ?? scenarioNameOf(source), manifest, file, steps },
  };
}

/** Problems in the order of their fields (steps[2] before steps[10]). */
const byField = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

function scenarioNameOf(source: string): string {
  return (source.split('/').at(-1) ?? source).replace(/\.(ya?ml|json)$/, '');
}

/** Scenario text (JSON when the name ends in .json or the text starts with `{`, else YAML), checked. */
export async function parseScenarioText(text: string, source: string, baseDir: string): Promise<Scenario> {
  const json = source.endsWith('.json') || text.trimStart().startsWith('{');
  let value: unknown;
  try {
    value = json ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new DevnetError(
      'BAD_SCENARIO',
      `${source} is not valid ${json ? 'JSON' : 'YAML'}: ${(e as Error).message}`,
    );
  }
  const checked = await checkScenario(value, source, baseDir);
  if (!checked.ok)
    throw new DevnetError(
      'BAD_SCENARIO',
      `${source} has ${checked.problems.length === 1 ? 'a problem' : `${checked.problems.length} problems`}:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  return checked.scenario;
}

/** A scenario file, read and checked; a manifest path in it is relative to the file. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new DevnetError('BAD_SCENARIO', `cannot read ${path}: ${(e as Error).message}`);
  }
  return parseScenarioText(text, path, dirname(resolve(path)));
}

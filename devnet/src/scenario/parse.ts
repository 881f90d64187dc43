/**
 * Reads and checks a scenario file (YAML or JSON) before any devnet starts: the schema (ajv),
 * then what a schema cannot say (one kind per step, node names that exist, the manifest's own
 * rules). Every problem names its field path (`steps[3].kill.node: unknown node "validator-9"`);
 * all of them are reported at once, as a BAD_SCENARIO error.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DevnetError } from '../errors.js';
import { checkManifest, type Manifest, parseManifestText } from '../spec/manifest.js';
import { stepLabel } from './label.js';
import type { Scenario, ScenarioFile, Step } from './scenario.js';
import { STEP_KINDS, type StepKind } from './schema.js';
import { isPlainObject, schemaProblems } from './schemaCheck.js';

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

/** A manifest inline or by path (relative to `baseDir`), checked by the manifest's own checker. */
async function manifestOf(
  manifest: unknown,
  baseDir: string,
): Promise<{ manifest: Manifest; problems: string[] }> {
  if (typeof manifest === 'string' && manifest !== '') {
    const path = resolve(baseDir, manifest);
    try {
      return { manifest: parseManifestText(await readFile(path, 'utf8'), path), problems: [] };
    } catch (e) {
      return { manifest: {}, problems: [`manifest: ${(e as Error).message}`] };
    }
  }
  if (!isPlainObject(manifest)) return { manifest: {}, problems: [] }; // absent, or named by the schema
  const checked = checkManifest(manifest);
  return checked.ok
    ? { manifest: checked.manifest, problems: [] }
    : { manifest: {}, problems: checked.problems.map((p) => `manifest.${p}`) };
}

/**
 * Checks a parsed scenario (any value at all: it never throws on a shape); reads a manifest given
 * by path (relative to `baseDir`). Returns the scenario, or every problem. The rules past the
 * schema look only at the parts the schema accepted, so they can trust those parts' types.
 */
export async function checkScenario(
  value: unknown,
  source: string,
  baseDir: string,
): Promise<{ ok: true; scenario: Scenario } | { ok: false; problems: string[] }> {
  const verdict = schemaProblems(value);
  const problems = [...verdict.problems];
  if (!isPlainObject(value))
    return {
      ok: false,
      problems: problems.length > 0 ? problems : ['the file must be an object with steps'],
    };
  const file = value as unknown as ScenarioFile;
  const fromManifest = await manifestOf(value.manifest, baseDir);
  problems.push(...fromManifest.problems);
  const manifest = fromManifest.manifest;

  // A manifest with problems names no nodes for sure: the steps' node names are not checked then.
  const nodesKnown = fromManifest.problems.length === 0 && !verdict.refused('/manifest');
  const known = nodeNamesOf(manifest);
  const unknown = (path: string, name: string) =>
    !nodesKnown || known.includes(name)
      ? []
      : [`${path}: unknown node "${name}" (nodes: ${known.join(', ')})`];
  const steps: Scenario['steps'][number][] = [];
  const stepList: unknown[] = Array.isArray(value.steps) ? value.steps : [];
  stepList.forEach((raw, i) => {
    if (!isPlainObject(raw)) return; // named by the schema
    const kinds = STEP_KINDS.filter((k) => k in raw);
    // A key that is no kind was named by the schema already ("unknown step kind").
    const unnamed = Object.keys(raw).some(
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
    const add = raw.add;
    if (kind === 'add')
      known.push(isPlainObject(add) && typeof add.name === 'string' ? add.name : `validator-${known.length}`);
    if (verdict.refused(`/steps/${i}`)) return; // its problems are named; nothing here trusts it
    const step = raw as Step;
    for (const [path, name] of nodeRefs(kind, step)) problems.push(...unknown(`steps[${i}].${path}`, name));
    if (kind === 'partition') {
      const all: string[] = (step.partition ?? []).flat();
      const twice = all.find((n, j) => all.indexOf(n) !== j);
      if (twice !== undefined) problems.push(`steps[${i}].partition: ${twice} is in two groups`);
    }
    steps.push({ kind, step, label: stepLabel(i, kind, step) });
  });
  if (!verdict.refused('/load/nodes'))
    file.load?.nodes?.forEach((n, i) => {
      problems.push(...unknown(`load.nodes[${i}]`, n));
    });
  if (!verdict.refused('/invariants/byzantine'))
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

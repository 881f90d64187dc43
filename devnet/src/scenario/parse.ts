/**
 * Reads and checks a scenario file (YAML or JSON) before any devnet starts: the schema (ajv),
 * then what a schema cannot say (one kind per step, node names that exist, the manifest's own
 * rules). Every problem names its field path (`steps[3].kill.node: unknown node "validator-9"`);
 * all of them are reported at once, as a BAD_SCENARIO error.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DevnetError } from '../base/errors.js';
import { swarmSettings } from '../operations/up.js';
import { checkManifest, type Manifest, parseManifestText, type RuntimeChoice } from '../spec/manifest.js';
import { stepLabel } from './label.js';
import { nodeMetricNames } from './metricNames.js';
import { type KnownNetwork, knownNetwork, unknownName } from './network.js';
import { type Named, producerOf, referenceProblems } from './refs.js';
import { loadProblems, stepProblems } from './rules.js';
import type { Scenario, ScenarioFile, Step } from './scenario.js';
import { STEP_KINDS, STEP_META, type StepKind } from './schema.js';
import { isPlainObject, type SchemaVerdict, schemaProblems } from './schemaCheck.js';

export interface CheckOptions {
  /** The runtime the file will run on when a flag says (devnet test --runtime). */
  readonly runtime?: RuntimeChoice;
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

/** The manifest (inline or by path), the network it makes, and the runtime's refusals of it. */
async function networkOf(
  value: Record<string, unknown>,
  file: ScenarioFile,
  verdict: SchemaVerdict,
  baseDir: string,
  o: CheckOptions,
): Promise<{ manifest: Manifest; net: KnownNetwork; problems: string[] }> {
  const fromManifest = await manifestOf(value.manifest, baseDir);
  const problems = [...fromManifest.problems];
  const manifest = fromManifest.manifest;
  // A manifest with problems names no nodes for sure: the steps' names are not checked then.
  const known = knownNetwork(manifest, fromManifest.problems.length === 0 && !verdict.refused('/manifest'));
  if (known.problem !== null) problems.push(known.problem);
  // Refused by devnet up on any runtime but swarm (the one --runtime, the file or its manifest says).
  const runtime =
    o.runtime ?? (verdict.refused('/runtime') ? undefined : file.runtime) ?? manifest.runtime ?? 'auto';
  if (known.net.sure && runtime !== 'swarm')
    for (const s of swarmSettings(manifest))
      problems.push(`manifest.${s.split(' ')[0]}: for the swarm runtime only (this file runs on ${runtime})`);
  return { manifest, net: known.net, problems };
}

/** A step's one kind, or the problem with its kinds (null: the schema named it already). */
function stepKindOf(
  raw: Record<string, unknown>,
  i: number,
): { kind: StepKind } | { problem: string | null } {
  const kinds = STEP_KINDS.filter((k) => k in raw);
  if (kinds.length === 1) return { kind: kinds[0]! };
  // A key that is no kind was named by the schema already ("unknown step kind").
  const unnamed = Object.keys(raw).some(
    (k) => !STEP_META.includes(k) && !(STEP_KINDS as string[]).includes(k),
  );
  if (kinds.length === 0 && unnamed) return { problem: null };
  return {
    problem:
      kinds.length === 0
        ? `steps[${i}]: no step kind (one of ${STEP_KINDS.join(', ')})`
        : `steps[${i}]: one step kind per step, found ${kinds.join(', ')}`,
  };
}

const asOf = (raw: unknown) => (isPlainObject(raw) && typeof raw.as === 'string' ? raw.as : null);

/**
 * Step `i`'s references to the results of the steps before it, then the name its `as` gives its
 * own (added to `named`, the names of the steps before the next one).
 */
function namingProblems(
  stepList: readonly unknown[],
  i: number,
  raw: Record<string, unknown>,
  kind: StepKind,
  verdict: SchemaVerdict,
  named: Map<string, Named>,
): string[] {
  const problems: string[] = [];
  if (!verdict.refused(`/steps/${i}`)) {
    // Every name in the file from this step on: a reference to one is to a later step.
    const later = new Set(
      stepList
        .slice(i)
        .map(asOf)
        .filter((n) => n !== null),
    );
    problems.push(...referenceProblems(i, raw, kind, named, later));
  }
  const as = asOf(raw);
  if (as !== null) {
    const first = named.get(as);
    if (first !== undefined) problems.push(`steps[${i}].as: ${as} already names steps[${first.index}]`);
    else named.set(as, { index: i, kind: producerOf(kind, raw[kind]) });
  }
  return problems;
}

/** The steps in order: each one's kind, names and rules; a node a step adds is known to the steps after it. */
async function checkSteps(
  stepList: readonly unknown[],
  verdict: SchemaVerdict,
  net: KnownNetwork,
): Promise<{ steps: Scenario['steps'][number][]; problems: string[] }> {
  const steps: Scenario['steps'][number][] = [];
  const problems: string[] = [];
  // Results named with `as` by the steps before the one checked.
  const named = new Map<string, Named>();
  for (const [i, raw] of stepList.entries()) {
    if (!isPlainObject(raw)) continue; // named by the schema
    const kindOrProblem = stepKindOf(raw, i);
    if ('problem' in kindOrProblem) {
      if (kindOrProblem.problem !== null) problems.push(kindOrProblem.problem);
      continue;
    }
    const { kind } = kindOrProblem;
    problems.push(...namingProblems(stepList, i, raw, kind, verdict, named));
    if (verdict.refused(`/steps/${i}`)) {
      // Its problems are named, and nothing here trusts it; a node it adds is known after it still.
      const add = raw.add;
      if (kind === 'add')
        net.nodes.push(
          isPlainObject(add) && typeof add.name === 'string' ? add.name : `validator-${net.nodes.length}`,
        );
      continue;
    }
    const step = raw as Step;
    problems.push(...(await stepProblems(net, i, kind, step, nodeMetricNames)));
    steps.push({ kind, step, label: stepLabel(i, kind, step) });
  }
  return { steps, problems };
}

/** The file's load and its invariants' settings, against the network the steps left. */
function runSettingProblems(file: ScenarioFile, verdict: SchemaVerdict, net: KnownNetwork): string[] {
  const problems: string[] = [];
  // Its fields the schema accepted are checked also when it refused another (an unknown one).
  if (isPlainObject(file.load))
    problems.push(...loadProblems(net, file.load, (field) => verdict.refused(`/load/${field}`)));
  if (!verdict.refused('/invariants/byzantine'))
    file.invariants?.byzantine?.forEach((n, i) => {
      problems.push(...unknownName(net, `invariants.byzantine[${i}]`, n, ['node']));
    });
  return problems;
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
  o: CheckOptions = {},
): Promise<{ ok: true; scenario: Scenario } | { ok: false; problems: string[] }> {
  const verdict = schemaProblems(value);
  const problems = [...verdict.problems];
  if (!isPlainObject(value))
    return {
      ok: false,
      problems: problems.length > 0 ? problems : ['the file must be an object with steps'],
    };
  const file = value as unknown as ScenarioFile;
  const network = await networkOf(value, file, verdict, baseDir, o);
  problems.push(...network.problems);
  const checked = await checkSteps(Array.isArray(value.steps) ? value.steps : [], verdict, network.net);
  problems.push(...checked.problems);
  problems.push(...runSettingProblems(file, verdict, network.net));

  if (problems.length > 0) return { ok: false, problems: [...new Set(problems)].sort(byField) };
  return {
    ok: true,
    scenario: {
      source,
      name: file.name ?? scenarioNameOf(source),
      manifest: network.manifest,
      file,
      steps: checked.steps,
    },
  };
}

/** Problems in the order of their fields (steps[2] before steps[10]). */
const byField = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

function scenarioNameOf(source: string): string {
  return (source.split('/').at(-1) ?? source).replace(/\.(ya?ml|json)$/, '');
}

/** Scenario text (JSON when the name ends in .json or the text starts with `{`, else YAML), checked. */
export async function parseScenarioText(
  text: string,
  source: string,
  baseDir: string,
  o: CheckOptions = {},
): Promise<Scenario> {
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
  const checked = await checkScenario(value, source, baseDir, o);
  if (!checked.ok)
    throw new DevnetError(
      'BAD_SCENARIO',
      `${source} has ${checked.problems.length === 1 ? 'a problem' : `${checked.problems.length} problems`}:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  return checked.scenario;
}

/** A scenario file, read and checked; a manifest path in it is relative to the file. */
export async function loadScenarioFile(path: string, o: CheckOptions = {}): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new DevnetError('BAD_SCENARIO', `cannot read ${path}: ${(e as Error).message}`);
  }
  return parseScenarioText(text, path, dirname(resolve(path)), o);
}

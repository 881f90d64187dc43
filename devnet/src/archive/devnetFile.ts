/**
 * devnet/devnet.json of an archive, checked whole before anything is made (`up --from`): a
 * stranger's archive is data, and nothing in it is trusted for being there. Its shape by a schema
 * (every problem named by its field, all in one pass); its manifest by the manifest's own checks;
 * the nodes added later each a name, once, none the genesis nodes' or the accounts', at the index
 * it must have; the versions its nodes ran only of nodes it has. Pinning the versions (they must
 * mean on this machine what a manifest's would) is versions.ts's.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { NAME_PATTERN } from '../base/names.js';
import { checkManifest, fieldOf } from '../spec/manifest.js';
import { buildNetworkSpec } from '../spec/networkSpec.js';
import { ALL_NODES, MAX_NODES } from '../spec/ports.js';
import type { DevnetState } from '../state/devnetState.js';
import { VERSION_PATTERN } from '../versions/source.js';
import { archiveError } from './format.js';

const HEX64 = '^[0-9a-f]{64}$';
const WEI = '^[0-9]{1,78}$';

const STATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'runtime', 'input', 'added'],
  properties: {
    version: { const: 1 },
    runtime: { enum: ['process', 'threads', 'docker', 'swarm'] },
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['manifest', 'genesisTime'],
      properties: {
        manifest: { type: 'object' },
        genesisTime: { type: 'integer', minimum: 0, maximum: 2 ** 40 },
      },
    },
    added: {
      type: 'array',
      maxItems: MAX_NODES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'index', 'stake'],
        properties: {
          name: { type: 'string', pattern: NAME_PATTERN },
          index: { type: 'integer', minimum: 0, maximum: MAX_NODES - 1 },
          stake: { anyOf: [{ type: 'string', pattern: WEI }, { type: 'null' }] },
          placement: { type: 'string', minLength: 1, maxLength: 256 },
          stateSync: { type: 'boolean' },
        },
      },
    },
    createdAt: { type: 'string', maxLength: 64 },
    monitoring: { type: 'object' },
    market: { type: 'string', maxLength: 2048 },
    status: { enum: ['running', 'stopped'] },
    versions: {
      type: 'object',
      maxProperties: MAX_NODES,
      propertyNames: { pattern: NAME_PATTERN },
      additionalProperties: { type: 'string', maxLength: 4096, pattern: VERSION_PATTERN },
    },
    fork: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'height', 'source_chain_id', 'block_hash', 'snapshot_hash', 'supply'],
      properties: {
        url: { type: 'string', maxLength: 2048, pattern: '^https?://\\S+$' },
        height: { type: 'integer', minimum: 1 },
        source_chain_id: { type: 'string', pattern: NAME_PATTERN },
        block_hash: { type: 'string', pattern: HEX64 },
        snapshot_hash: { type: 'string', pattern: HEX64 },
        supply: {
          type: 'object',
          additionalProperties: false,
          required: ['carried', 'added'],
          properties: { carried: { type: 'string', pattern: WEI }, added: { type: 'string', pattern: WEI } },
        },
      },
    },
  },
} as const;

let validate: ReturnType<Ajv['compile']> | null = null;

function described(e: ErrorObject): string {
  const field = fieldOf(e.instancePath) || '(top level)';
  const at = field === '(top level)' ? '' : `${field}.`;
  switch (e.keyword) {
    case 'additionalProperties':
      return `${at}${(e.params as { additionalProperty: string }).additionalProperty} is not a field of devnet.json (version 1)`;
    case 'required':
      return `${at}${(e.params as { missingProperty: string }).missingProperty} is required`;
    case 'propertyNames':
      return `${field}: ${JSON.stringify((e.params as { propertyName: string }).propertyName).slice(0, 80)} is not a node name`;
    case 'pattern':
      return `${field}: ${JSON.stringify(e.data).slice(0, 80)} does not match ${(e.params as { pattern: string }).pattern}`;
    default:
      return `${field} ${e.message ?? 'is invalid'}`;
  }
}

/** Every problem of the file, each naming its field; none: its state. */
export function checkArchivedState(file: string, raw: unknown): DevnetState {
  validate ??= new Ajv({ allErrors: true, verbose: true }).compile(STATE_SCHEMA);
  const problems = validate(raw) ? [] : (validate.errors ?? []).map(described);
  if (problems.length === 0) {
    const s = raw as DevnetState;
    const checked = checkManifest(s.input.manifest);
    if (!checked.ok) problems.push(...checked.problems.map((p) => `input.manifest: ${p}`));
    else problems.push(...nodeProblems(s));
  }
  if (problems.length > 0)
    throw archiveError(file, `devnet/devnet.json: ${[...new Set(problems)].join('; ')}`);
  return raw as DevnetState;
}

/** The added nodes and the versions, against the nodes and accounts the manifest makes. */
function nodeProblems(s: DevnetState): string[] {
  let spec: ReturnType<typeof buildNetworkSpec>;
  try {
    spec = buildNetworkSpec(s.input);
  } catch (e) {
    return [`input: ${(e as Error).message}`];
  }
  const taken = new Set([...spec.nodes.map((n) => n.name), ...spec.accounts.map((a) => a.name), ALL_NODES]);
  const problems: string[] = [];
  s.added.forEach((a, i) => {
    if (taken.has(a.name)) problems.push(`added[${i}].name: ${a.name} is taken in this devnet`);
    taken.add(a.name);
    const index = spec.nodes.length + i;
    if (a.index !== index) problems.push(`added[${i}].index must be ${index}, got ${a.index}`);
  });
  if (spec.nodes.length + s.added.length > MAX_NODES)
    problems.push(`added: a devnet has at most ${MAX_NODES} nodes`);
  const nodes = new Set([...spec.nodes.map((n) => n.name), ...s.added.map((a) => a.name)]);
  for (const name of Object.keys(s.versions ?? {}))
    if (!nodes.has(name)) problems.push(`versions: ${name} is no node of this devnet`);
  return problems;
}

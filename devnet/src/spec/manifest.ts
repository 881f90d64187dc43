/**
 * The devnet manifest: a JSON or YAML file that describes a topology (validators with names
 * and stakes, extra funded accounts, chain parameters, monitoring). Checked with ajv; every
 * problem names its field (`validators[1].stake`). Documented field by field in devnet/README.md.
 */

import { parseByteSize, parseDuration } from '@chain-devnet/kit/values';
import { parseAmount } from '@chain-devnet/node/chain';
import { BYZANTINE_MODES, type ByzantineMode } from '@chain-devnet/node/testnet';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { DevnetError } from '../base/errors.js';
import { NAME_PATTERN, RESERVED_NAMES } from '../base/names.js';
import { type ZoneMatrix, type ZoneSetup, zoneProblems } from '../net/zones.js';
import { VERSION_FORMS, VERSION_PATTERN } from '../versions/source.js';

export const RUNTIME_CHOICES = ['auto', 'docker', 'process', 'threads', 'swarm'] as const;
export type RuntimeChoice = (typeof RUNTIME_CHOICES)[number];

export interface ManifestValidator {
  name?: string;
  /** Self-stake, e.g. "1000coin" or wei digits. */
  stake?: string;
  commission_rate?: number;
  /** Multi-machine runtimes (swarm): the machine to run on, by its name or id; default round robin. */
  placement?: string;
  /** TEST ONLY: a Byzantine validator (`chain-node start --byzantine MODE`). */
  byzantine?: ByzantineMode;
  /** Joins by state sync from its peers' snapshots when its store is empty (`chain-node start --state-sync`). */
  state_sync?: boolean;
  /** The chain-node it runs: checkout (default), git:REF, path:DIR or image:NAME (versions/source.ts). */
  version?: string;
  /** Its zone, a key of the manifest's `zones` (net/zones.ts). */
  zone?: string;
  /** Its store on a disk of its own of this size (a tmpfs), which `devnet disk --full` fills; overrides the top-level `disk`. */
  disk?: ManifestDisk;
  /** TEST ONLY: its own clock ahead (`+10s`) or behind (`-10s`), as `devnet clock NODE --skew` sets it. */
  clock_skew?: string;
}

/** A node's data disk of its own (runtime/dataDisk.ts): a size-limited tmpfs under its store. */
export interface ManifestDisk {
  /** e.g. "64MiB", "32MB" or bytes (at least 1 MiB). */
  size: string;
}

export interface ManifestAccount {
  name: string;
  balance: string;
  /** 64 hex; by default the key comes from the seed and the name. */
  private_key?: string;
}

export interface Manifest {
  /** A count (validator-0 … validator-(N-1)) or a list. */
  validators?: number | ManifestValidator[];
  runtime?: RuntimeChoice;
  seed?: string;
  chain_id?: string;
  block_time?: string;
  epoch_length?: number;
  base_port?: number;
  /** Funded developer accounts account-0 … (default 3, 1,000,000 coins each). */
  developer_accounts?: number;
  accounts?: ManifestAccount[];
  /** Genesis parameters (docs/RULES.md), e.g. { "unbonding_blocks": 10 }. */
  params?: Record<string, unknown>;
  /**
   * The protocol version the genesis starts at (spec/protocolVersion.ts): default the newest this
   * checkout runs, or 1.0.0 when a genesis validator runs another version (git:, path:, image:).
   */
  protocol_version?: string;
  monitoring?: boolean;
  /** swarm: a registry the node image is pushed to and every machine pulls from. */
  registry?: string;
  /** swarm: the Docker engine of each machine (by swarm node name or id), for kill, pause, disconnect… */
  engines?: Record<string, string>;
  /** The task market and a sample worker beside the nodes (docs/MARKET.md), at P+1093. */
  market?: boolean;
  /** The panel on P+1092 (default true); false: none (`devnet up --no-ui`). */
  ui?: boolean;
  /** Where each protocol version's chain-node is (target version -> a version as `version` names it): what --auto-upgrade runs. */
  upgrades?: Record<string, string>;
  /** A node that halts for an upgrade plan is restarted on the plan's version from `upgrades` (`devnet up --auto-upgrade`). */
  auto_upgrade?: boolean;
  /** Every genesis node records its consensus core (chain-node --record-consensus; `devnet replay`). */
  record_consensus?: boolean;
  /** Start from a running node's state (`devnet up --fork URL[@HEIGHT]`; devnet/README.md, "Forking a running network"). */
  fork?: ManifestFork;
  /** Round trips between zones as ping shows them (net/zones.ts; devnet/README.md, "Network conditions"). */
  zones?: ZoneMatrix;
  /** Every node's store on a disk of its own of this size (a validator's own `disk` overrides it). */
  disk?: ManifestDisk;
}

export interface ManifestFork {
  /** The source node's RPC, http:// or https://. */
  url: string;
  /** The height to fork at (a snapshot the source keeps); default its newest below its head. */
  height?: number;
}

const AMOUNT = '^\\d+(\\.\\d{1,18})?\\s*(coin|coins|wei)?$';
/** host[:port][/path]: what `docker push` takes before the repository name. */
export const REGISTRY = '^[A-Za-z0-9.-]+(:\\d{1,5})?(/[a-z0-9._-]+)*$';
/** A Docker engine address: tcp://host:port, ssh://[user@]host[:port] or unix:///path. */
export const ENGINE = '^(tcp://[^/\\s]+|ssh://[^/\\s]+|unix:///\\S+)$';
const DISK_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['size'],
  properties: { size: { type: 'string', minLength: 1 } },
} as const;
/** A protocol version, MAJOR.MINOR.PATCH. */
const SEMVER = '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$';

export const MANIFEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    validators: {
      oneOf: [
        { type: 'integer', minimum: 1, maximum: 64 },
        {
          type: 'array',
          minItems: 1,
          maxItems: 64,
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              name: { type: 'string', pattern: NAME_PATTERN },
              stake: { type: 'string', pattern: AMOUNT },
              commission_rate: { type: 'number', minimum: 0, maximum: 1 },
              placement: { type: 'string', minLength: 1 },
              byzantine: { enum: [...BYZANTINE_MODES] },
              state_sync: { type: 'boolean' },
              version: { type: 'string', pattern: VERSION_PATTERN },
              zone: { type: 'string', minLength: 1 },
              disk: DISK_SCHEMA,
              clock_skew: { type: 'string', pattern: '^[+-]?[0-9]+(\\.[0-9]+)?(ms|s|m|h)?$' },
            },
          },
        },
      ],
    },
    runtime: { enum: [...RUNTIME_CHOICES] },
    seed: { type: 'string', minLength: 1 },
    chain_id: { type: 'string', minLength: 1 },
    block_time: { type: 'string' },
    epoch_length: { type: 'integer', minimum: 1 },
    base_port: { type: 'integer', minimum: 1024, maximum: 64000 },
    developer_accounts: { type: 'integer', minimum: 0, maximum: 100 },
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'balance'],
        properties: {
          name: { type: 'string', pattern: NAME_PATTERN },
          balance: { type: 'string', pattern: AMOUNT },
          private_key: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
      },
    },
    params: { type: 'object' },
    protocol_version: { type: 'string', pattern: SEMVER },
    monitoring: { type: 'boolean' },
    registry: { type: 'string', pattern: REGISTRY },
    engines: {
      type: 'object',
      additionalProperties: { type: 'string', pattern: ENGINE },
    },
    market: { type: 'boolean' },
    ui: { type: 'boolean' },
    upgrades: {
      type: 'object',
      propertyNames: { pattern: SEMVER },
      additionalProperties: { type: 'string', pattern: VERSION_PATTERN },
    },
    auto_upgrade: { type: 'boolean' },
    record_consensus: { type: 'boolean' },
    zones: { type: 'object' },
    disk: DISK_SCHEMA,
    fork: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: { type: 'string', pattern: '^https?://\\S+$' },
        height: { type: 'integer', minimum: 1 },
      },
    },
  },
} as const;

// Compiled when a manifest is read, not when the CLI loads: most commands read none.
let validateSchema: ValidateFunction | null = null;

/** `/validators/1/stake` -> `validators[1].stake` (an ajv instance path as a field path). */
export function fieldOf(path: string): string {
  return path
    .split('/')
    .slice(1)
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function describe(e: ErrorObject): string {
  const field = fieldOf(e.instancePath) || '(top level)';
  switch (e.keyword) {
    case 'additionalProperties':
      return `${field === '(top level)' ? '' : `${field}.`}${(e.params as { additionalProperty: string }).additionalProperty} is not a manifest field`;
    case 'required':
      return `${field === '(top level)' ? '' : `${field}.`}${(e.params as { missingProperty: string }).missingProperty} is required`;
    case 'propertyNames':
      return `${field}: ${JSON.stringify((e.params as { propertyName: string }).propertyName)} is not a protocol version MAJOR.MINOR.PATCH`;
    case 'pattern':
      if (e.instancePath.startsWith('/upgrades/'))
        return `upgrades["${e.instancePath.slice('/upgrades/'.length)}"]: ${JSON.stringify(e.data)} is not a version: use ${VERSION_FORMS}`;
      if (e.instancePath.endsWith('/version'))
        return `${field}: ${JSON.stringify(e.data)} is not a version: use ${VERSION_FORMS}`;
      if (e.instancePath === '/protocol_version')
        return `${field}: ${JSON.stringify(e.data)} is not a protocol version MAJOR.MINOR.PATCH`;
      return e.instancePath.endsWith('stake') || e.instancePath.endsWith('balance')
        ? `${field} must be an amount like 1000coin or wei digits`
        : e.instancePath.endsWith('private_key')
          ? `${field} must be 64 lowercase hex digits`
          : e.instancePath === '/fork/url'
            ? `${field} must be an http:// or https:// URL (a node's RPC)`
            : e.instancePath === '/registry'
              ? `${field} must be a registry like registry.example.com:5000 (host, optional port and path)`
              : e.instancePath.startsWith('/engines/')
                ? `${field} must be an engine address: tcp://HOST:PORT, ssh://[USER@]HOST or unix:///PATH`
                : `${field} must be lowercase letters, digits and dashes`;
    case 'enum':
      return `${field} must be one of ${(e.params as { allowedValues: string[] }).allowedValues.join(', ')}`;
    default:
      return `${field} ${e.message ?? 'is invalid'}`;
  }
}

/** Checks a parsed manifest; returns every problem, each naming its field. */
export function checkManifest(
  value: unknown,
): { ok: true; manifest: Manifest } | { ok: false; problems: string[] } {
  validateSchema ??= new Ajv({ allErrors: true, verbose: true }).compile(MANIFEST_SCHEMA);
  if (!validateSchema(value)) {
    const errors = validateSchema.errors ?? [];
    // `validators` is a count or a list (oneOf): when an item of the list is at fault, the
    // "not a count" branch is noise; when the whole value is wrong, say it once, plainly.
    const itemAtFault = errors.some((e) => e.instancePath.startsWith('/validators/'));
    const problems = new Set<string>();
    for (const e of errors) {
      if (e.instancePath === '/validators') {
        if (!itemAtFault)
          problems.add(
            'validators must be a count from 1 to 64 or a list of { name, stake, commission_rate, byzantine, placement, state_sync, version, zone, disk, clock_skew }',
          );
        continue;
      }
      // A key of `upgrades` that is no version: said once, by propertyNames.
      if (e.instancePath === '/upgrades' && e.keyword === 'pattern') continue;
      problems.add(describe(e));
    }
    return { ok: false, problems: [...problems] };
  }
  const m = value as Manifest;
  const problems: string[] = [];
  if (m.block_time !== undefined && !(parseDuration(m.block_time) ?? 0))
    problems.push(`block_time must be a duration like 300ms or 2s, got ${JSON.stringify(m.block_time)}`);
  if (Array.isArray(m.validators)) {
    m.validators.forEach((v, i) => {
      if (v.stake !== undefined && parseAmount(v.stake) === null)
        problems.push(`validators[${i}].stake is not a valid amount`);
    });
    const names = m.validators.map((v, i) => v.name ?? `validator-${i}`);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) problems.push(`validators: the name ${dup} is used twice`);
    names.forEach((n, i) => {
      const reserved = RESERVED_NAMES[n];
      if (reserved !== undefined)
        problems.push(`validators[${i}].name ${n} is not a node's name: ${reserved}`);
    });
  }
  const sizes = [
    ['disk.size', m.disk],
    ...(Array.isArray(m.validators)
      ? m.validators.map((v, i) => [`validators[${i}].disk.size`, v.disk] as const)
      : []),
  ] as const;
  for (const [field, disk] of sizes)
    if (disk !== undefined && (diskBytesOf(disk) ?? 0) < MIN_DISK_BYTES)
      problems.push(
        `${field} must be a size of at least 1MiB like 64MiB or 32MB, got ${JSON.stringify(disk.size)}`,
      );
  m.accounts?.forEach((a, i) => {
    if (parseAmount(a.balance) === null) problems.push(`accounts[${i}].balance is not a valid amount`);
  });
  problems.push(...manifestZoneProblems(m));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, manifest: m };
}

/** The zone of each validator of a list that gives one (name -> zone). */
export function validatorZones(m: Manifest): Record<string, string> {
  const zones: Record<string, string> = {};
  if (Array.isArray(m.validators))
    m.validators.forEach((v, i) => {
      if (v.zone !== undefined) zones[v.name ?? `validator-${i}`] = v.zone;
    });
  return zones;
}

/** The manifest's zones (its matrix and each validator's zone), or null: none. */
export function manifestZones(m: Manifest): ZoneSetup | null {
  return m.zones === undefined ? null : { matrix: m.zones, nodes: validatorZones(m) };
}

/** The zones' problems (net/zones.ts), each naming its field; none without zones. */
function manifestZoneProblems(m: Manifest): string[] {
  const nodes = validatorZones(m);
  if (m.zones === undefined && Object.keys(nodes).length === 0) return [];
  const listed = Array.isArray(m.validators) ? m.validators : [];
  const fieldOfNode = (name: string) =>
    `validators[${listed.findIndex((v, i) => (v.name ?? `validator-${i}`) === name)}].zone`;
  return zoneProblems(m.zones ?? {}, nodes, 'zones', fieldOfNode);
}

/** The smallest data disk: level's files of a new store and some blocks fit in it. */
export const MIN_DISK_BYTES = 1024 * 1024;

/** A manifest disk's size in bytes, or null when it is no size. */
export function diskBytesOf(disk: ManifestDisk): number | null {
  return parseByteSize(disk.size);
}

/** Parses manifest text: JSON when the file name ends in .json (or the text starts with `{`), else YAML. */
export function parseManifestText(text: string, fileName: string): Manifest {
  let value: unknown;
  const json = fileName.endsWith('.json') || text.trimStart().startsWith('{');
  try {
    value = json ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new DevnetError(
      'BAD_MANIFEST',
      `${fileName} is not valid ${json ? 'JSON' : 'YAML'}: ${(e as Error).message}`,
    );
  }
  return requireManifest(value ?? {}, fileName);
}

/** A manifest value (parsed from a file, or made by a program), checked: BAD_MANIFEST lists every problem. */
export function requireManifest(value: unknown, source: string): Manifest {
  const checked = checkManifest(value);
  if (!checked.ok)
    throw new DevnetError(
      'BAD_MANIFEST',
      `${source} has ${checked.problems.length === 1 ? 'a problem' : 'problems'}:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  return checked.manifest;
}

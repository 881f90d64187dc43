/**
 * The market's request checks (ajv), each refusal naming its field (docs/MARKET.md, "Errors"):
 * `payload.max_tokens must be an integer from 1 to 32768`. The funding transaction's shape is the
 * node's own schema of POST /tx/send (one definition); the chain's parser then checks what a
 * schema cannot (Bech32 checksums, points on the curve, the signature).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isWellFormed, parseWei } from '../../chain/index.js';
import { txBodySchema } from '../../rpc/schemas.js';
import {
  CHALLENGE_TYPES,
  type ChallengeType,
  fieldRule,
  PAYLOAD_FIELDS,
  type Payload,
  type PayloadField,
} from '../challenges.js';
import { byteLength, micros } from '../terms.js';

const TOP_RULES: Readonly<Record<string, string>> = {
  challenge_type: `must be one of ${CHALLENGE_TYPES.join(', ')}`,
  payload: 'must be an object',
  reward: 'must be a decimal string of wei, above 0 and below 2^256',
  deadline: 'must be Unix seconds (an integer from 0 to 2^53-1)',
  funding: 'must be a signed TRANSFER in the JSON form of POST /tx/send',
  worker_address: 'must be a coin1 address',
  pub_key: 'must be 66 lowercase hex (a compressed public key)',
  signature: 'must be 130 lowercase hex (r, s, v)',
};

const createTaskSchema = {
  type: 'object',
  required: ['challenge_type', 'payload', 'reward', 'funding'],
  additionalProperties: false,
  properties: {
    challenge_type: { enum: [...CHALLENGE_TYPES] },
    payload: { type: 'object' },
    reward: { type: 'string', pattern: '^[1-9][0-9]{0,77}$' },
    deadline: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    funding: txBodySchema,
  },
} as const;

const statementSchema = {
  type: 'object',
  required: ['worker_address', 'pub_key', 'signature'],
  additionalProperties: false,
  properties: {
    worker_address: { type: 'string', maxLength: 90 },
    pub_key: { type: 'string', pattern: '^(02|03)[0-9a-f]{64}$' },
    signature: { type: 'string', pattern: '^[0-9a-f]{130}$' },
  },
} as const;

function payloadSchema(fields: readonly PayloadField[]) {
  return {
    type: 'object',
    additionalProperties: false,
    required: fields.filter((f) => f.required).map((f) => f.name),
    properties: Object.fromEntries(
      fields.map((f) => [
        f.name,
        f.kind === 'string'
          ? { type: 'string', minLength: f.minBytes }
          : { type: f.kind === 'integer' ? 'integer' : 'number', minimum: f.min, maximum: f.max },
      ]),
    ),
  };
}

interface Compiled {
  readonly createTask: ValidateFunction;
  readonly statement: ValidateFunction;
  readonly payloads: Readonly<Record<ChallengeType, ValidateFunction>>;
}

let compiled: Compiled | null = null;

function validators(): Compiled {
  if (compiled !== null) return compiled;
  const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
  compiled = {
    createTask: ajv.compile(createTaskSchema),
    statement: ajv.compile(statementSchema),
    payloads: Object.fromEntries(
      CHALLENGE_TYPES.map((t) => [t, ajv.compile(payloadSchema(PAYLOAD_FIELDS[t]))]),
    ) as Record<ChallengeType, ValidateFunction>,
  };
  return compiled;
}

/** `/funding/nonce` -> `funding.nonce`; `prefix` names the object checked (`payload`). */
function fieldOf(e: ErrorObject, prefix: string): string {
  const path = e.instancePath.split('/').slice(1);
  if (e.keyword === 'required') path.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties')
    path.push((e.params as { additionalProperty: string }).additionalProperty);
  return [prefix, ...path].filter((p) => p !== '').join('.');
}

function describe(
  e: ErrorObject | undefined,
  prefix: string,
  rule: (field: string) => string | undefined,
): string {
  if (e === undefined) return `${prefix || 'body'} is invalid`;
  const field = fieldOf(e, prefix);
  if (field === '') return 'body must be a JSON object';
  if (e.keyword === 'required') return `${field} is required`;
  if (e.keyword === 'additionalProperties') return `${field} is not a known field`;
  return `${field} ${rule(field) ?? e.message ?? 'is invalid'}`;
}

/** The shape of POST /tasks: null, or the refusal naming the field. */
export function createTaskProblem(body: unknown): string | null {
  const v = validators().createTask;
  if (v(body)) return null;
  return describe(v.errors?.[0], '', (field) =>
    field.startsWith('funding.') ? undefined : TOP_RULES[field],
  );
}

/** The reward as wei (after createTaskProblem): null above 2^256 − 1. */
export function rewardOf(text: string): bigint | null {
  return parseWei(text);
}

/** A payload of `type`: null, or the refusal naming `payload.<field>`. */
export function payloadProblem(type: ChallengeType, payload: unknown): string | null {
  const fields = PAYLOAD_FIELDS[type];
  const v = validators().payloads[type];
  if (!v(payload))
    return describe(v.errors?.[0], 'payload', (field) => {
      const f = fields.find((x) => `payload.${x.name}` === field);
      return f === undefined ? undefined : fieldRule(f);
    });
  // What a schema does not say: UTF-8 byte bounds, well-formed text, six decimals.
  const p = payload as Payload;
  for (const f of fields) {
    const value = p[f.name];
    if (value === undefined) continue;
    const bad =
      f.kind === 'string'
        ? !isWellFormed(value as string) || byteLength(value as string) > f.maxBytes
        : f.kind === 'decimal' && micros(value as number) / 1e6 !== value;
    if (bad) return `payload.${f.name} ${fieldRule(f)}`;
  }
  return null;
}

/** The shape of a worker's statement (claim, failure report): null, or the refusal naming the field. */
export function statementShapeProblem(body: unknown): string | null {
  const v = validators().statement;
  if (v(body)) return null;
  return describe(v.errors?.[0], '', (field) => TOP_RULES[field]);
}

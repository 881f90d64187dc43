/**
 * The four challenge types and the payload of each (docs/MARKET.md, "Payloads"): one table of
 * fields, in order, from which come the JSON schema a request is checked with (schemas.ts), the
 * words of a refusal ("payload.max_tokens must be an integer from 1 to 32768") and the payload's
 * bytes in the task's terms (terms.ts). Inference is the specification's; training, rendering
 * and synthetic are this market's.
 */

export const CHALLENGE_TYPES = ['inference', 'training', 'rendering', 'synthetic'] as const;
export type ChallengeType = (typeof CHALLENGE_TYPES)[number];

export type FieldKind =
  /** UTF-8 text, well formed, of minBytes … maxBytes bytes. */
  | { readonly kind: 'string'; readonly minBytes: number; readonly maxBytes: number }
  /** A JSON integer from min to max (at most 2^53 − 1). */
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  /** A JSON number from min to max with at most six decimals (held as millionths). */
  | { readonly kind: 'decimal'; readonly min: number; readonly max: number };

export type PayloadField = FieldKind & { readonly name: string; readonly required: boolean };

const text = (name: string, maxBytes: number, required = true): PayloadField => ({
  name,
  kind: 'string',
  minBytes: 1,
  maxBytes,
  required,
});
const int = (name: string, min: number, max: number, required = true): PayloadField => ({
  name,
  kind: 'integer',
  min,
  max,
  required,
});
const dec = (name: string, min: number, max: number, required = true): PayloadField => ({
  name,
  kind: 'decimal',
  min,
  max,
  required,
});

export const PAYLOAD_FIELDS: Readonly<Record<ChallengeType, readonly PayloadField[]>> = {
  inference: [
    text('model_id', 128),
    text('prompt', 16_384),
    int('max_tokens', 1, 32_768),
    dec('temperature', 0, 2, false),
  ],
  training: [
    text('model_id', 128),
    text('dataset_uri', 1024),
    int('epochs', 1, 1000),
    int('batch_size', 1, 65_536, false),
    dec('learning_rate', 0.000001, 1, false),
  ],
  rendering: [
    text('scene_uri', 1024),
    int('width', 1, 16_384),
    int('height', 1, 16_384),
    int('frames', 1, 100_000),
    int('samples_per_pixel', 1, 65_536, false),
  ],
  synthetic: [
    text('generator', 128),
    int('count', 1, 1_000_000),
    int('seed', 0, Number.MAX_SAFE_INTEGER, false),
  ],
};

/** What a field must be, in words: the end of a refusal naming it. */
export function fieldRule(f: FieldKind): string {
  switch (f.kind) {
    case 'string':
      return `must be a string of ${f.minBytes} to ${f.maxBytes} UTF-8 bytes`;
    case 'integer':
      return `must be an integer from ${f.min} to ${f.max}`;
    case 'decimal':
      return `must be a number from ${f.min} to ${f.max} with at most 6 decimals`;
  }
}

/** A task's payload as accepted: field name -> string or number, only the table's fields. */
export type Payload = Readonly<Record<string, string | number>>;

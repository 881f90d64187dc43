/**
 * A request for conditions on a node's links as data, the one shape of the scenario's `net` step
 * and the panel's POST /api/net (`devnet net NODE …` or its --clear): its type and its JSON
 * Schema, the values as people write them (units.ts reads them). Pure.
 */
import type { FieldsInput } from './units.js';

export interface NetRequest extends FieldsInput {
  /** The node whose links change; absent with clear: every node's. */
  readonly node?: string;
  /** Only the links to these nodes (default every peer). */
  readonly to?: readonly string[];
  readonly direction?: 'out' | 'in' | 'both';
  /** Removes the node's conditions (those links only, with to or direction). */
  readonly clear?: boolean;
}

const NODE = { type: 'string', minLength: 1, maxLength: 128 } as const;
const VALUE = { type: ['string', 'number'] } as const;

export const NET_REQUEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [],
  properties: {
    node: NODE,
    latency: VALUE,
    jitter: VALUE,
    loss: VALUE,
    rate: VALUE,
    to: { type: 'array', items: NODE, minItems: 1, maxItems: 64 },
    direction: { enum: ['out', 'in', 'both'] },
    clear: { type: 'boolean' },
  },
} as const;

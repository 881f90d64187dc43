/**
 * The scenario steps of network conditions (docs/SCENARIOS.md, "Network conditions"): `net`
 * (devnet net), `zones` (devnet zones), `oneWay` (devnet partition --one-way) and
 * `partitionShape` (devnet partition --shape); `heal` ends the one-way cuts and shapes too. Their
 * schema, their checks before anything starts, and their run as testkit calls, here together.
 */

import { NET_REQUEST_SCHEMA, type NetRequest } from '../net/request.js';
import { SHAPES, type Shape } from '../net/shapes.js';
import { linkFieldsOf } from '../net/units.js';
import { type ZoneMatrix, zoneProblems } from '../net/zones.js';
import type { Conditions } from '../testkit/testnet/conditions.js';
import { type KnownNetwork, unknownName } from './network.js';

export type NetStep = NetRequest;

export interface ZonesStep {
  readonly zones?: ZoneMatrix;
  readonly nodes?: Readonly<Record<string, string>>;
  /** Back to the manifest's zones. */
  readonly clear?: boolean;
}

export interface NetSteps {
  readonly net?: NetStep;
  readonly zones?: ZonesStep;
  readonly oneWay?: { readonly from: string; readonly to: string };
  readonly partitionShape?: Shape;
}

const NODE = { type: 'string', minLength: 1 } as const;
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export const NET_STEPS_SCHEMA = {
  net: {
    description:
      "devnet net NODE: latency and jitter (100ms, 0.2s), loss (1%, 0.01), rate (1mbit) on the node's links (to: only those; direction out|in|both, default both); clear: true removes them (no node: every node's).",
    ...NET_REQUEST_SCHEMA,
  },
  zones: {
    description:
      "devnet zones: each node's zone and the ROUND TRIPS between zones as ping shows them (zone -> zone -> rtt_ms or {rtt_ms, jitter_ms, loss}); clear: true, back to the manifest's.",
    ...obj({
      zones: { type: 'object' },
      nodes: { type: 'object', additionalProperties: { type: 'string' } },
      clear: { type: 'boolean' },
    }),
  },
  oneWay: {
    description: "devnet partition --one-way FROM TO: from's messages no longer reach to (heal ends it).",
    ...obj({ from: NODE, to: NODE }, ['from', 'to']),
  },
  partitionShape: {
    description:
      'devnet partition --shape: minority, halves, bridge (a node in both halves) or ring (each node a majority of its own) over every node (heal ends it).',
    enum: [...SHAPES],
  },
} as const;

/** The problems of a net step the schema accepted, each naming its field. */
export function netStepProblems(
  net: KnownNetwork,
  i: number,
  kind: keyof NetSteps,
  step: NetSteps,
): string[] {
  const path = `steps[${i}].${kind}`;
  const names = (p: string, xs: readonly string[]) =>
    xs.flatMap((n, j) => unknownName(net, `${p}[${j}]`, n, ['node']));
  switch (kind) {
    case 'net': {
      const s = step.net!;
      const out = s.node === undefined ? [] : unknownName(net, `${path}.node`, s.node, ['node']);
      if (s.node === undefined && !s.clear)
        out.push(`${path}.node is required (only clear: true goes without)`);
      out.push(...names(`${path}.to`, s.to ?? []));
      const f = linkFieldsOf(s, path);
      if (!f.ok) out.push(...f.problems);
      else if (!s.clear && Object.keys(f.fields).length === 0)
        out.push(`${path}: give latency, jitter, loss or rate (or clear: true)`);
      return out;
    }
    case 'zones': {
      const z = step.zones!;
      if (z.clear) return [];
      const nodes = z.nodes ?? {};
      return [
        ...Object.keys(nodes).flatMap((n) => unknownName(net, `${path}.nodes`, n, ['node'])),
        ...zoneProblems(z.zones ?? {}, nodes, `${path}.zones`, (n) => `${path}.nodes.${n}`),
      ];
    }
    case 'oneWay': {
      const { from, to } = step.oneWay!;
      return [
        ...unknownName(net, `${path}.from`, from, ['node']),
        ...unknownName(net, `${path}.to`, to, ['node']),
        ...(from === to ? [`${path}: from and to are the same node`] : []),
      ];
    }
    case 'partitionShape':
      return [];
  }
}

/** Runs a net step as testkit calls (a Testnet's conditions, or the simulation's: simSteps.ts). */
export async function netStep(
  t: { readonly conditions: Conditions },
  kind: keyof NetSteps,
  step: NetSteps,
): Promise<void> {
  switch (kind) {
    case 'net': {
      const s = step.net!;
      const o = {
        ...(s.to === undefined ? {} : { to: s.to }),
        ...(s.direction === undefined ? {} : { direction: s.direction }),
      };
      if (s.clear) await t.conditions.clear(s.node, o);
      else await t.conditions.set(s.node!, s, o);
      return;
    }
    case 'zones': {
      const z = step.zones!;
      await t.conditions.zones(z.clear ? null : { matrix: z.zones ?? {}, nodes: z.nodes ?? {} });
      return;
    }
    case 'oneWay':
      await t.conditions.oneWay(step.oneWay!.from, step.oneWay!.to);
      return;
    case 'partitionShape':
      await t.conditions.shape(step.partitionShape!);
      return;
  }
}

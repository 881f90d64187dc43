/**
 * TEST ONLY (extension, issue 41): POST /net/probe {"peer": "<peer id>", "bytes": N} measures
 * this node's link to a connected peer through the conditions in force (p2p/probe.ts): its
 * round trip and, when N > 0, N bytes each way. Only a node with --fault-injection has a probe
 * (`TestOnlyRoutes.netProbe`); any other answers 404 saying so.
 */
import { HttpError, parseJson, readBody, sendJson } from '@chain-devnet/kit/http';
import type { NetProbeAnswer } from '../answers.js';
import { netProbeProblem } from '../schemas.js';
import type { Handlers } from './handler.js';

/** A probe of the link to `peer` (null: the node runs without --fault-injection or without p2p). */
export type NetProbe = (peer: string, bytes: number) => Promise<NetProbeAnswer>;

/** The test-only routes' parts, filled in by the composition root once the network is up. */
export interface TestOnlyRoutes {
  netProbe: NetProbe | null;
}

/** Why a probe could not be made, as the probe reports it: the peer not connected, or no answer. */
export class ProbeRefusal extends Error {
  constructor(
    readonly status: 409 | 504,
    message: string,
  ) {
    super(message);
  }
}

const bad = (detail: string) => new HttpError(400, `Invalid probe request: ${detail}`);

export function netProbeHandlers(testOnly: TestOnlyRoutes): Handlers<'netProbe'> {
  return {
    netProbe: async (ctx) => {
      const probe = testOnly.netProbe;
      if (probe === null)
        throw new HttpError(
          404,
          'POST /net/probe is fault injection: the node runs without --fault-injection',
        );
      if (!ctx.is('application/json')) throw bad('Content-Type must be application/json');
      const body = parseJson(await readBody(ctx.req, 4096), bad) as { peer: string; bytes?: number };
      const problem = netProbeProblem(body);
      if (problem !== null) throw bad(problem);
      try {
        sendJson(ctx, 200, await probe(body.peer, body.bytes ?? 0));
      } catch (e) {
        if (e instanceof ProbeRefusal) throw new HttpError(e.status, e.message);
        throw e;
      }
    },
  };
}

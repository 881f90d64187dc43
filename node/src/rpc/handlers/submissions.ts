/**
 * The RPC's writes: POST /tx/send (one transaction: received, or rejected saying why; a
 * malformed one is a 400 before anything is written), the batch extension POST /tx/send_batch
 * (issue 29; docs/PROTOCOL.md: up to 256 at once, one parse, one admission batch, each answered
 * in order; malformed as a whole when any is), and GET /tx/{hash} (its receipt).
 */

import type { RpcOptions } from '@chain-devnet/kit/http';
import { HttpError, parseJson, readBody, sendJson } from '@chain-devnet/kit/http';
import { MAX_TXS_BATCH_BYTES } from '../../chain/index.js';
import { isHex } from '../../crypto/hex.js';
import type { SubmitAnswer } from '../answers.js';
import type { RpcBackend, SubmitOutcome } from '../backend.js';
import { invalidTx } from '../refusals.js';
import { txBatchProblem, txBodyProblem } from '../schemas.js';
import type { Handlers, Ready } from './handler.js';

/** A well-formed transaction's answer: received, or rejected saying why. */
function submitAnswer(o: SubmitOutcome): SubmitAnswer {
  if (o.kind === 'rejected') return { tx_hash: o.hash, status: 'rejected', error: o.message };
  if (o.kind === 'received') return { tx_hash: o.hash, status: 'received' };
  // A malformed one makes its request a 400 before any answer is written.
  throw invalidTx(o.reason);
}

export function submissionHandlers(
  backend: RpcBackend,
  ready: Ready,
  opts: RpcOptions,
): Handlers<'sendTx' | 'sendTxs' | 'receipt'> {
  return {
    sendTx: async (ctx) => {
      ready();
      if (!ctx.is('application/json')) throw invalidTx('Content-Type must be application/json');
      const raw = await readBody(ctx.req, opts.maxBodyBytes);
      const body = parseJson(raw, invalidTx);
      const problem = txBodyProblem(body);
      if (problem) throw invalidTx(problem);
      // Settles after the admission batch this transaction joined (its signature checked with the others').
      const outcome = await backend.submit(body, raw.length);
      if (outcome.kind === 'malformed') throw invalidTx(outcome.reason);
      sendJson(ctx, 200, submitAnswer(outcome));
    },

    sendTxs: async (ctx) => {
      ready();
      if (!ctx.is('application/json')) throw invalidTx('Content-Type must be application/json');
      const raw = await readBody(ctx.req, MAX_TXS_BATCH_BYTES);
      const body = parseJson(raw, invalidTx);
      const problem = txBatchProblem(body);
      if (problem) throw invalidTx(problem);
      const outcome = await backend.submitBatch(body as unknown[], raw.length);
      if (outcome.kind === 'malformed') throw invalidTx(outcome.reason);
      sendJson(ctx, 200, outcome.outcomes.map(submitAnswer));
    },

    receipt: async (ctx) => {
      ready();
      const hash = ctx.params.hash ?? '';
      if (!isHex(hash, 32))
        throw new HttpError(400, 'Invalid transaction hash: expected 64 lowercase hex characters');
      const receipt = await backend.receipt(hash);
      if (receipt === null) throw new HttpError(404, 'Transaction not found');
      sendJson(ctx, 200, receipt);
    },
  };
}

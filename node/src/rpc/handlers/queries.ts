/**
 * The RPC's reads of the chain (GET /status, /block/{h}, /block/{h}/commit, /balance/{a}, the
 * validators, delegations, rewards, unbonding, supply, evidence and upgrades): each a view of the
 * committed state or the store, answered as the specification shapes it.
 */
import { HttpError, sendJson } from '@chain-devnet/kit/http';
import type { RpcBackend } from '../backend.js';
import { accountParam, heightParam } from '../params.js';
import { upgradesView } from '../upgradesView.js';
import {
  balanceView,
  commitView,
  delegationsView,
  rewardsView,
  statusView,
  supplyView,
  unbondingView,
  validatorsView,
} from '../views.js';
import type { Handlers, Ready } from './handler.js';

export function queryHandlers(
  backend: RpcBackend,
  ready: Ready,
): Handlers<
  | 'status'
  | 'block'
  | 'commit'
  | 'balance'
  | 'validators'
  | 'delegations'
  | 'rewards'
  | 'unbonding'
  | 'supply'
  | 'evidence'
  | 'upgrades'
> {
  return {
    status: (ctx) => sendJson(ctx, 200, statusView(ready(), backend.mempoolSize, backend.disk)),

    block: async (ctx) => {
      ready();
      const block = await backend.blockJson(heightParam(ctx.params.height));
      if (block === null) throw new HttpError(404, 'Block not found');
      sendJson(ctx, 200, block);
    },

    commit: async (ctx) => {
      ready();
      const commit = await backend.commit(heightParam(ctx.params.height));
      if (commit === null) throw new HttpError(404, 'Commit not found');
      sendJson(ctx, 200, commitView(commit));
    },

    balance: (ctx) => sendJson(ctx, 200, balanceView(ready(), accountParam(ctx.params.address))),
    validators: (ctx) => sendJson(ctx, 200, validatorsView(ready())),
    delegations: (ctx) => sendJson(ctx, 200, delegationsView(ready(), accountParam(ctx.params.address))),
    rewards: (ctx) => sendJson(ctx, 200, rewardsView(ready(), accountParam(ctx.params.address))),
    unbonding: (ctx) => sendJson(ctx, 200, unbondingView(ready(), accountParam(ctx.params.address))),

    supply: (ctx) => sendJson(ctx, 200, supplyView(ready())),

    evidence: (ctx) => {
      ready();
      sendJson(ctx, 200, { evidence: backend.evidence() });
    },

    upgrades: (ctx) => sendJson(ctx, 200, upgradesView(ready(), backend.versions)),
  };
}

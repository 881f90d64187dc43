/**
 * TEST ONLY (extension, issue 42): GET /chain/control answers the chain control in force on the
 * node and whether its consensus is held (docs/PROTOCOL.md, "Chain control"): what the devnet
 * waits on before it says a chain is held or a new chain time is in force. Only a node with
 * --fault-injection has a control (`TestOnlyRoutes.chainControl`); any other answers 404 saying so.
 */
import { HttpError, sendJson } from '@chain-devnet/kit/http';
import type { Handlers } from './handler.js';
import type { TestOnlyRoutes } from './netProbe.js';

export function chainControlHandlers(testOnly: TestOnlyRoutes): Handlers<'chainControl'> {
  return {
    chainControl: async (ctx) => {
      const report = testOnly.chainControl;
      if (report === null)
        throw new HttpError(
          404,
          'GET /chain/control is fault injection: the node runs without --fault-injection',
        );
      sendJson(ctx, 200, report());
    },
  };
}

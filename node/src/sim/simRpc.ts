/**
 * The simulated nodes' RPC, reached without sockets: a client's transport (client/jsonHttp.ts)
 * that hands each request to the node's own RPC app in this process (light-my-request, the
 * in-process HTTP injection the RPC's tests use), so that every client of the node (the RpcClient,
 * the devnet's testkit over it) talks to a simulated node as to a real one. A node's URL is
 * `http://NAME.sim`. As a real node's: one that is down refuses (RpcUnreachableError), and one that
 * is paused answers nothing until the request's wait runs out, on the waits' clock (kit/wait:
 * virtual time when the simulation drives it). An answer takes no simulated time.
 */
import type { RequestListener } from 'node:http';
import { pause } from '@chain-devnet/kit/wait';
import { inject } from 'light-my-request';
import {
  type AnswerHeaders,
  type HttpTransport,
  RpcAnswerTooLargeError,
  RpcUnreachableError,
} from '../client/jsonHttp.js';

/** The host suffix of a simulated node's URL. */
const SIM_HOST = '.sim';

/** A simulated node's RPC URL. */
export const simRpcUrl = (name: string): string => `http://${name}${SIM_HOST}`;

/** What the transport needs of a node: its RPC app while it is up, and whether it is frozen. */
export interface SimRpcTarget {
  readonly rpc: RequestListener | null;
  readonly paused: boolean;
}

/** The transport to the nodes `nodeOf` finds by name (undefined: no such node). */
export function simRpcTransport(nodeOf: (name: string) => SimRpcTarget | undefined): HttpTransport {
  return async ({ url, method, headers, body, timeoutMs, maxBytes }) => {
    const target = new URL(url);
    const name = target.hostname.endsWith(SIM_HOST) ? target.hostname.slice(0, -SIM_HOST.length) : null;
    const node = name === null ? undefined : nodeOf(name);
    if (node === undefined) throw new RpcUnreachableError(url, 'ENOTFOUND', new Error(`no node ${name}`));
    if (node.paused) {
      await pause(timeoutMs);
      throw new RpcUnreachableError(url, `no answer within ${timeoutMs} ms`, new Error('paused'));
    }
    if (node.rpc === null)
      throw new RpcUnreachableError(
        url,
        'ECONNREFUSED',
        Object.assign(new Error('the node is down'), { code: 'ECONNREFUSED' }),
      );
    const res = await inject(node.rpc, {
      method: method as 'GET',
      url: `${target.pathname}${target.search}`,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: body }),
    });
    const bytes = new Uint8Array(res.rawPayload);
    if (bytes.length > maxBytes) throw new RpcAnswerTooLargeError(url, maxBytes);
    const answerHeaders: AnswerHeaders = {
      get: (h) => {
        const v = res.headers[h.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
      },
    };
    return { status: res.statusCode, bytes, headers: answerHeaders };
  };
}

/**
 * The shared HTTP edge (`@chain-devnet/kit/http`), apart from the RPC's routes: the node's RPC,
 * the task market and the devnet's panel are served on it. The server with the node's settings, whose
 * Node-level refusals answer `{"detail"}` too; a request body read with a byte limit (413 past
 * it); JSON answers, Koa's bare 404 and 405 among them; the lingering close after an early
 * answer; the error that carries its status and detail.
 */
export { parseJson, readBody } from './body.js';
export {
  answerUnrouted,
  closeOnceBodyRead,
  edgeMiddleware,
  type ObserveRequest,
  sendJson,
  silenceKoa,
} from './edge.js';
export { HttpError } from './httpError.js';
export type { LingerBounds } from './lingeringClose.js';
export { DEFAULT_RPC_OPTIONS, type RpcOptions } from './options.js';
export { createRpcServer } from './server.js';
